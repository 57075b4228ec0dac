import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { formatMoney } from '../../lib/money';
import { label } from './format';
import { LoadError, Loading } from '../../components/ui/load-state';
import { Empty } from './empty';
import { pollMs, type AdminWorker } from './types';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';

/** The terminate button appears at 2 or more strikes. */
export const TERMINATION_STRIKES = 2;

const statusTone = (status: string): BadgeTone =>
  status === 'active' ? 'green' : status === 'terminated' ? 'red' : status === 'rejected' ? 'slate' : 'yellow';

export function WorkersTab() {
  const workers = useQuery<AdminWorker[]>({ queryKey: queryKeys.workers, refetchInterval: pollMs.workers });

  if (workers.isPending) return <Loading label="Loading workers…" />;
  if (workers.isError) return <LoadError message="Failed to fetch workers" onRetry={() => void workers.refetch()} retrying={workers.isFetching} />;
  if (workers.data.length === 0) {
    return <Empty title="No workers yet">Approved applicants appear here once they create their worker account.</Empty>;
  }
  return (
    <section aria-labelledby="workers-heading">
      <h2 id="workers-heading" className="mb-4 text-xl font-bold text-white">
        All workers <span className="text-base font-medium text-slate-300">({workers.data.length})</span>
      </h2>
      <ul className="grid gap-4 md:grid-cols-2">
        {workers.data.map((worker) => (
          <li key={worker.id}>
            <WorkerCard worker={worker} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function WorkerCard({ worker }: { worker: AdminWorker }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string>();

  const terminate = useMutation({
    mutationFn: () => api('POST /api/admin/workers/{id}/terminate', { params: { id: worker.id } }),
    onMutate: () => setFailure(undefined),
    onSuccess: () => {
      setConfirming(false);
      toast({ title: 'Worker Terminated', description: `${worker.fullName} can no longer take jobs.` });
    },
    onError: () => setFailure('Failed to terminate worker'),
    onSettled: () =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.workers }),
        queryClient.invalidateQueries({ queryKey: queryKeys.analytics }),
      ]),
  });

  const canTerminate = worker.status === 'active' && worker.strikes >= TERMINATION_STRIKES;
  const headingId = `worker-${worker.id}`;
  return (
    <Card role="group" aria-labelledby={headingId} className="h-full">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="truncate text-lg font-semibold text-white">
            {worker.fullName}
          </h3>
          <p className="truncate text-sm text-slate-300">{worker.email}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Badge tone={statusTone(worker.status)}>{label(worker.status)}</Badge>
          {worker.status === 'active' ? (
            <Badge tone={worker.isAvailable ? 'blue' : 'slate'}>{worker.isAvailable ? 'Available' : 'Unavailable'}</Badge>
          ) : null}
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-300">Phone</dt>
        <dd>{worker.phone || '—'}</dd>
        <dt className="text-slate-300">Experience</dt>
        <dd>
          {worker.yearsExp} {worker.yearsExp === 1 ? 'year' : 'years'}
        </dd>
        <dt className="text-slate-300">Hourly rate</dt>
        <dd>{formatMoney(worker.hourlyRate)}</dd>
        <dt className="text-slate-300">Services</dt>
        <dd>{worker.categories.map(label).join(', ') || '—'}</dd>
        <dt className="text-slate-300">Strikes</dt>
        <dd className={worker.strikes >= TERMINATION_STRIKES ? 'font-semibold text-red-300' : undefined}>{worker.strikes}</dd>
        <dt className="text-slate-300">Joined</dt>
        <dd>{formatDateTime(worker.createdAt, 'date') ?? '—'}</dd>
      </dl>
      <FormAlert message={failure} className="mt-4" />
      {canTerminate ? (
        <div className="mt-5 flex flex-wrap gap-3 border-t border-white/10 pt-4">
          {confirming ? (
            <>
              <Button variant="destructive" size="sm" disabled={terminate.isPending} onClick={() => terminate.mutate()}>
                {terminate.isPending ? 'Terminating…' : `Confirm termination of ${worker.fullName}`}
              </Button>
              <Button variant="ghost" size="sm" disabled={terminate.isPending} onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="destructive" size="sm" onClick={() => setConfirming(true)} aria-label={`Terminate ${worker.fullName}`}>
              Terminate
            </Button>
          )}
        </div>
      ) : null}
    </Card>
  );
}
