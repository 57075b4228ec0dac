import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, Clock } from 'lucide-react';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { failureText } from '../../domain/jobs/job-timeline';

/**
 * "Has your pro arrived?": asked when the pro pressed Mark Arrived and their location could not
 * confirm it. Yes records the arrival (as of when they pressed); Not yet tells the pro, and the
 * arrival deadline keeps running for them.
 */
export function ArrivalQuestion({ request }: { request: Pick<ServiceRequestView, 'id' | 'worker'> }) {
  const queryClient = useQueryClient();
  const name = request.worker?.name.trim() || 'Your pro';

  const refresh = (updated?: ServiceRequestView | null) => {
    if (updated?.id) queryClient.setQueriesData<ServiceRequestView>({ queryKey: queryKeys.trackedJobs }, (tracked) => (tracked && tracked.id === updated.id ? { ...tracked, ...updated } : tracked));
    void queryClient.invalidateQueries({ queryKey: queryKeys.trackedJobs });
    void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
  };

  const answer = useMutation({
    mutationFn: (arrived: boolean) => api('POST /api/requests/{id}/arrival', { params: { id: request.id }, body: { arrived } }),
    onSuccess: (updated, arrived) => {
      refresh(updated);
      toast(arrived ? { title: 'Arrival confirmed', description: `Thanks. ${name} is marked as arrived.` } : { title: 'Thanks for letting us know', description: `We told ${name} they have not arrived yet.` });
    },
    onError: (error) => {
      // A 409 means the job moved on meanwhile (the pro was reassigned, the claim is gone): what shows catches up.
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) refresh();
      toast({ title: 'Could not send your answer', description: failureText(error, 'Please try again later.'), variant: 'destructive' });
    },
  });

  return (
    <div role="group" aria-labelledby="arrival-question" className="grid gap-2 rounded-xl bg-amber-950/60 p-3 ring-1 ring-amber-400/40" data-testid="arrival-question">
      <p id="arrival-question" className="font-semibold text-amber-50">
        Has your pro arrived?
      </p>
      <p className="text-sm text-amber-100">{name} says they are at your door, but their location could not confirm it.</p>
      <div className="flex flex-wrap gap-3">
        <Button size="sm" onClick={() => answer.mutate(true)} disabled={answer.isPending} aria-busy={answer.isPending && answer.variables === true}>
          <Check aria-hidden="true" className="size-4" />
          Yes
        </Button>
        <Button size="sm" variant="outline" onClick={() => answer.mutate(false)} disabled={answer.isPending} aria-busy={answer.isPending && answer.variables === false}>
          <Clock aria-hidden="true" className="size-4" />
          Not yet
        </Button>
      </div>
    </div>
  );
}
