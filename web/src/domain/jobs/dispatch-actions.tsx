import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { Button, buttonClasses } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { failureText } from './job-timeline';

type DispatchFields = 'id' | 'canRetry' | 'canCancel';

/**
 * The customer's say over a job no pro has taken: "Try again" offers the same job afresh once the
 * search found nobody (nothing to retype), "Cancel request" withdraws it, after a second press.
 * Every screen showing the job (the request list, the hires, /track) catches up at once.
 */
export function DispatchActions({ request }: { request: Pick<ServiceRequestView, DispatchFields> }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<'retried' | 'cancelled' | null>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const said = useRef<HTMLParagraphElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const focusSaid = useRef(false);
  const focusCancel = useRef(false);
  const params = { id: request.id };

  const refresh = (updated?: ServiceRequestView | null) => {
    if (updated?.id) {
      const merge = <T extends ServiceRequestView>(item: T): T => (item.id === updated.id ? { ...item, ...updated } : item);
      queryClient.setQueryData<ServiceRequestView[]>(queryKeys.customerRequests, (list) => list?.map(merge));
      queryClient.setQueriesData<ServiceRequestView>({ queryKey: queryKeys.trackedJobs }, (tracked) => (tracked ? merge(tracked) : tracked));
    }
    void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
    void queryClient.invalidateQueries({ queryKey: queryKeys.trackedJobs });
  };
  // A 409 means the job moved on meanwhile (a pro accepted, the search restarted): what shows catches up.
  const onRefused = (error: unknown) => {
    if (error instanceof ApiError && (error.status === 404 || error.status === 409)) refresh();
  };

  const retry = useMutation({
    mutationFn: () => api('POST /api/requests/{id}/retry', { params }),
    onSuccess: (updated) => {
      focusSaid.current = true;
      setOutcome('retried');
      refresh(updated);
      toast({ title: 'Searching again', description: 'We are asking pros nearby again.' });
    },
    onError: (error) => {
      onRefused(error);
      toast({ title: 'Could not try again', description: failureText(error, 'Please try again later.'), variant: 'destructive' });
    },
  });

  const cancel = useMutation({
    mutationFn: () => api('POST /api/requests/{id}/cancel', { params }),
    onSuccess: (updated) => {
      focusSaid.current = true;
      setConfirming(false);
      setOutcome('cancelled');
      refresh(updated);
      toast({ title: 'Request cancelled', description: 'No pro will be sent.' });
    },
    onError: (error) => {
      setConfirming(false);
      onRefused(error);
      toast({ title: 'Could not cancel', description: failureText(error, 'Please try again later.'), variant: 'destructive' });
    },
  });

  // Asking to confirm puts focus on the safe answer; keeping the request puts it back where it was.
  useEffect(() => {
    if (confirming) keep.current?.focus();
    else if (focusCancel.current) cancelButton.current?.focus();
    focusCancel.current = false;
  }, [confirming]);

  const busy = retry.isPending || cancel.isPending;
  const canCancel = request.canCancel && outcome !== 'cancelled';
  const canRetry = request.canRetry && outcome !== 'cancelled';
  // "Asking again" holds while the new search runs; a pro accepting, or nobody again, ends it.
  const saying = outcome === 'cancelled' ? 'Request cancelled.' : outcome === 'retried' && request.canCancel && !request.canRetry ? 'We are asking pros nearby again.' : null;

  // The pressed button goes away with the answer: focus goes to the line that says what happened,
  // once, when that line first shows (the list's data can arrive a render after the answer).
  useEffect(() => {
    if (!focusSaid.current || !saying) return;
    focusSaid.current = false;
    said.current?.focus();
  }, [saying]);

  // Stays mounted with nothing to show, so what it says and where focus goes survive the answer.
  if (!saying && !canRetry && !canCancel) return null;

  return (
    <div className="grid gap-2">
      {saying ? (
        <p ref={said} tabIndex={-1} className="text-sm font-medium text-slate-100 focus:outline-none">
          {saying}
        </p>
      ) : null}
      {canRetry || canCancel ? (
        <div className="flex flex-wrap items-center gap-3">
          {canRetry ? (
            <Button size="sm" onClick={() => retry.mutate()} disabled={busy} aria-busy={retry.isPending}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {retry.isPending ? 'Trying again...' : 'Try again'}
            </Button>
          ) : null}
          {canCancel && !confirming ? (
            <button ref={cancelButton} type="button" className={buttonClasses('outline', 'sm')} onClick={() => setConfirming(true)} disabled={busy}>
              <X aria-hidden="true" className="size-4" />
              Cancel request
            </button>
          ) : null}
        </div>
      ) : null}
      {canCancel && confirming ? (
        <div role="group" aria-label="Cancel this request?" className="grid gap-2 rounded-xl bg-red-950/60 p-3 ring-1 ring-red-400/40">
          <p className="text-sm text-red-50">Cancel this request? No pro has accepted it yet, so nobody will be sent.</p>
          <div className="flex flex-wrap gap-3">
            <Button size="sm" variant="destructive" onClick={() => cancel.mutate()} disabled={cancel.isPending} aria-busy={cancel.isPending}>
              {cancel.isPending ? 'Cancelling...' : 'Yes, cancel request'}
            </Button>
            <button ref={keep} type="button" className={buttonClasses('ghost', 'sm')} onClick={() => {
                focusCancel.current = true;
                setConfirming(false);
              }}
              disabled={cancel.isPending}
            >
              Keep request
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
