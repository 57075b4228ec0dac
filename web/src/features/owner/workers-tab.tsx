import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { MAX_STATUS_REASON, STRIKES_TO_SUSPEND } from '../../../../shared/schemas/strikes';
import type { WorkerStatus } from '../../../../shared/schemas/worker';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { formatMoney } from '../../lib/money';
import { label } from './format';
import { LoadError, Loading } from '../../components/ui/load-state';
import { Empty } from './empty';
import { pollMs, type AdminWorker } from './types';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';
import { OpenAppeals, WorkerStrikeRecord } from './strikes';
import { LoadMore } from '../../components/ui/load-more';
import { byCursor, itemsOf } from '../../lib/pages';

const statusTone = (status: string): BadgeTone =>
  status === 'active' ? 'green' : status === 'terminated' ? 'red' : status === 'suspended' ? 'orange' : status === 'rejected' ? 'slate' : 'yellow';

/** The list's status filter: every worker, or those of one status. */
const statusFilters: readonly { value: WorkerStatus | ''; label: string }[] = [
  { value: '', label: 'All workers' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'terminated', label: 'Terminated' },
];

/**
 * The appeals to decide, then the workers a page at a time (oldest first; "Load more"), filtered by
 * status. Each worker opens their strike record with its evidence, and may be suspended, reinstated
 * or terminated with a reason they are shown.
 */
export function WorkersTab() {
  const filterId = useId();
  const [status, setStatus] = useState<WorkerStatus | ''>('');
  const workers = useInfiniteQuery({
    queryKey: queryKeys.adminWorkerList(status || undefined),
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/workers/all', { query: { status: status || undefined, cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.workers,
    staleTime: 0,
  });
  const list: AdminWorker[] = itemsOf(workers.data);

  return (
    <div>
      <OpenAppeals />
      <section aria-labelledby="workers-heading">
        <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
          <h2 id="workers-heading" className="text-xl font-bold text-white">
            Workers {workers.isSuccess ? <span className="text-base font-medium text-slate-300">({list.length}{workers.hasNextPage ? '+' : ''})</span> : null}
          </h2>
          <div>
            <label htmlFor={filterId} className="mb-1 block text-sm font-semibold text-slate-100">
              Show
            </label>
            <select
              id={filterId}
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
              value={status}
              onChange={(event) => setStatus(event.target.value as WorkerStatus | '')}
            >
              {statusFilters.map((filter) => (
                <option key={filter.value} value={filter.value}>
                  {filter.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        {workers.isPending ? (
          <Loading label="Loading workers…" />
        ) : workers.isError ? (
          <LoadError message="Failed to fetch workers" onRetry={() => void workers.refetch()} retrying={workers.isFetching} />
        ) : list.length === 0 && !workers.hasNextPage ? (
          <Empty title={status ? `No ${label(status).toLowerCase()} workers` : 'No workers yet'}>
            Approved applicants appear here once they create their worker account.
          </Empty>
        ) : (
          <>
            <ul className="grid gap-4 md:grid-cols-2">
              {list.map((worker) => (
                <li key={worker.id}>
                  <WorkerCard worker={worker} />
                </li>
              ))}
            </ul>
            <LoadMore list={workers} label="Load more workers" />
          </>
        )}
      </section>
    </div>
  );
}

type StatusAction = 'suspend' | 'reinstate' | 'terminate';

const actionText: Record<StatusAction, { button: string; confirm: string; pending: string; done: string; hint: string }> = {
  suspend: {
    button: 'Suspend',
    confirm: 'Confirm suspension',
    pending: 'Suspending…',
    done: 'Worker Suspended',
    hint: 'Takes the pro off dispatch and signs them out; they see this reason and may appeal their strikes.',
  },
  reinstate: {
    button: 'Reinstate',
    confirm: 'Confirm reinstatement',
    pending: 'Reinstating…',
    done: 'Worker Reinstated',
    hint: 'The pro may go on call again; strikes stay as they are (void them one by one).',
  },
  terminate: {
    button: 'Terminate',
    confirm: 'Confirm termination',
    pending: 'Terminating…',
    done: 'Worker Terminated',
    hint: 'Final: the pro can no longer take jobs and is signed out. They see this reason.',
  },
};

function WorkerCard({ worker }: { worker: AdminWorker }) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [action, setAction] = useState<StatusAction>();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [showStrikes, setShowStrikes] = useState(false);

  const change = useMutation({
    mutationFn: (chosen: StatusAction) => {
      const body = { reason };
      const params = { id: worker.id };
      if (chosen === 'suspend') return api('POST /api/admin/workers/{id}/suspend', { params, body });
      if (chosen === 'reinstate') return api('POST /api/admin/workers/{id}/reinstate', { params, body });
      return api('POST /api/admin/workers/{id}/terminate', { params, body });
    },
    onMutate: () => {
      setFailure(undefined);
      setReasonError(undefined);
    },
    onSuccess: (_answer, chosen) => {
      setAction(undefined);
      setReason('');
      toast({ title: actionText[chosen].done, description: `${worker.fullName} was told why.` });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) setReasonError(error.fields.reason ?? errorMessage(error));
      else setFailure(errorMessage(error) ?? 'Failed to change the worker’s status');
    },
    onSettled: () =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.workers }),
        queryClient.invalidateQueries({ queryKey: queryKeys.analytics }),
      ]),
  });

  const actions: StatusAction[] =
    worker.status === 'active' ? ['suspend', 'terminate'] : worker.status === 'suspended' ? ['reinstate', 'terminate'] : [];
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
      {worker.statusReason && worker.status !== 'active' ? (
        <p className="mt-3 text-sm text-slate-200" data-testid="worker-status-reason">
          <span className="font-semibold text-white">Reason:</span> {worker.statusReason}
          {worker.statusChangedAt ? <span className="text-slate-400"> ({formatDateTime(worker.statusChangedAt)})</span> : null}
        </p>
      ) : null}
      {worker.status === 'suspended' && worker.strikes < STRIKES_TO_SUSPEND ? (
        <p className="mt-2 text-sm text-amber-200">Strikes are below the limit now; the pro stays suspended until you reinstate them.</p>
      ) : null}
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
        <dd className={worker.strikes >= STRIKES_TO_SUSPEND ? 'font-semibold text-red-300' : undefined} data-testid="worker-strike-count">
          {worker.strikes}
        </dd>
        <dt className="text-slate-300">Joined</dt>
        <dd>{formatDateTime(worker.createdAt, 'date') ?? '—'}</dd>
      </dl>

      <div className="mt-4">
        <Button variant="ghost" size="sm" aria-expanded={showStrikes} onClick={() => setShowStrikes((shown) => !shown)}>
          {showStrikes ? 'Hide strike record' : `Strike record of ${worker.fullName}`}
        </Button>
        {showStrikes ? (
          <div className="mt-3">
            <WorkerStrikeRecord workerId={worker.id} />
          </div>
        ) : null}
      </div>

      <FormAlert message={failure} className="mt-4" />
      {actions.length > 0 ? (
        <div className="mt-5 grid gap-3 border-t border-white/10 pt-4">
          {action ? (
            <>
              <Field id={reasonId} label={`Reason for ${worker.fullName} (${actionText[action].button.toLowerCase()})`} hint={actionText[action].hint} error={reasonError}>
                <textarea rows={2} maxLength={MAX_STATUS_REASON} value={reason} onChange={(event) => setReason(event.target.value)} disabled={change.isPending} />
              </Field>
              <div className="flex flex-wrap gap-3">
                <Button
                  variant={action === 'reinstate' ? 'primary' : 'destructive'}
                  size="sm"
                  disabled={change.isPending}
                  onClick={() => {
                    if (!reason.trim()) {
                      setReasonError('Give a reason the pro will see');
                      document.getElementById(reasonId)?.focus();
                      return;
                    }
                    change.mutate(action);
                  }}
                >
                  {change.isPending ? actionText[action].pending : `${actionText[action].confirm} of ${worker.fullName}`}
                </Button>
                <Button variant="ghost" size="sm" disabled={change.isPending} onClick={() => setAction(undefined)}>
                  Cancel
                </Button>
              </div>
            </>
          ) : (
            <div className="flex flex-wrap gap-3">
              {actions.map((a) => (
                <Button
                  key={a}
                  variant={a === 'reinstate' ? 'primary' : a === 'terminate' ? 'destructive' : 'outline'}
                  size="sm"
                  onClick={() => {
                    setReasonError(undefined);
                    setAction(a);
                  }}
                  aria-label={`${actionText[a].button} ${worker.fullName}`}
                >
                  {actionText[a].button}
                </Button>
              ))}
            </div>
          )}
        </div>
      ) : null}
    </Card>
  );
}
