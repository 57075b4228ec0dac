import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { queryKeys } from '../../lib/query-keys';
import { failureText } from '../../domain/jobs/job-timeline';
import { toLocalInput, whenLimits } from '../../domain/estimate/estimate';

/** A scheduled job's time can be moved until the pro is on the way (the server says the same with a 409 after). */
const MOVABLE = new Set(['booked', 'offered', 'accepted']);

export function canReschedule(view: Pick<ServiceRequestView, 'requestedTime' | 'jobState'>): boolean {
  return Boolean(view.requestedTime) && MOVABLE.has(view.jobState);
}

/**
 * "Scheduled for <time>" with a Reschedule control: a date and time in the customer's own time zone,
 * sent as the instant it names. The pro who accepted is told by the server.
 */
export function RescheduleControl({ request }: { request: Pick<ServiceRequestView, 'id' | 'requestedTime' | 'jobState'> }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [open, setOpen] = useState(false);
  const [local, setLocal] = useState(() => (request.requestedTime ? toLocalInput(new Date(request.requestedTime)) : ''));
  const limits = whenLimits(Date.now());

  const refresh = (updated?: ServiceRequestView | null) => {
    if (updated?.id) queryClient.setQueriesData<ServiceRequestView>({ queryKey: queryKeys.trackedJobs }, (tracked) => (tracked && tracked.id === updated.id ? { ...tracked, ...updated } : tracked));
    void queryClient.invalidateQueries({ queryKey: queryKeys.trackedJobs });
    void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
  };

  const move = useMutation({
    mutationFn: (requestedTime: string) => api('POST /api/requests/{id}/reschedule', { params: { id: request.id }, body: { requestedTime } }),
    onSuccess: (updated) => {
      refresh(updated);
      setOpen(false);
      toast({ title: 'Rescheduled', description: `Your job is now scheduled for ${formatDateTime(updated.requestedTime) ?? 'the new time'}.` });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) refresh();
      toast({ title: 'Could not reschedule', description: failureText(error, 'Please try again later.'), variant: 'destructive' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = new Date(local);
    if (!local || Number.isNaN(at.getTime())) return;
    move.mutate(at.toISOString());
  };

  if (!request.requestedTime) return null;
  return (
    <section className="mt-4 rounded-xl bg-blue-950/60 p-3 text-blue-50 ring-1 ring-blue-400/40" aria-label="Scheduled time" data-testid="reschedule-control">
      <p className="flex items-center gap-2 font-semibold" data-testid="scheduled-for">
        <CalendarClock aria-hidden="true" className="size-5" />
        Scheduled for {formatDateTime(request.requestedTime)}
      </p>
      {open ? (
        <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={submit}>
          <label htmlFor={inputId} className="grid gap-1 text-sm">
            New date and time
            <input
              id={inputId}
              type="datetime-local"
              required
              min={limits.min}
              max={limits.max}
              value={local}
              onChange={(e) => setLocal(e.target.value)}
              className="rounded-md border border-slate-500 bg-slate-900 px-2 py-1 text-white"
            />
          </label>
          <Button size="sm" type="submit" disabled={move.isPending} aria-busy={move.isPending}>
            Save new time
          </Button>
          <Button size="sm" variant="outline" type="button" onClick={() => setOpen(false)} disabled={move.isPending}>
            Keep this time
          </Button>
        </form>
      ) : canReschedule(request) ? (
        <Button size="sm" variant="outline" className="mt-3" onClick={() => setOpen(true)}>
          Reschedule
        </Button>
      ) : null}
    </section>
  );
}
