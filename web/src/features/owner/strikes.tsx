import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { MAX_DECISION_NOTE, type StrikeView } from '../../../../shared/schemas/strikes';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadError, Loading } from '../../components/ui/load-state';
import { toast } from '../../components/ui/toast-store';
import { evidenceLines, strikeStatusLabels, strikeStatusTone } from '../../domain/strikes/strike-display';
import { ApiError, api, errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { queryKeys } from '../../lib/query-keys';
import { pollMs } from './types';
import { LoadMore } from '../../components/ui/load-more';
import { byCursor, itemsOf } from '../../lib/pages';

/**
 * The owner's side of the strike record: the appeals waiting for a decision, each worker's record
 * with its evidence, and Void / Uphold with a note the pro reads. Lists come a page at a time.
 */


/** Appeals waiting for the owner, oldest first; nothing at all while there are none. */
export function OpenAppeals() {
  const appeals = useInfiniteQuery({
    queryKey: queryKeys.strikeAppeals,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/strikes/appeals', { query: { cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.pending,
    staleTime: 0,
  });
  if (appeals.isPending) return <Loading label="Loading strike appeals…" />;
  if (appeals.isError) return <LoadError message="Failed to fetch strike appeals" onRetry={() => void appeals.refetch()} retrying={appeals.isFetching} />;
  const items = itemsOf(appeals.data);
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="appeals-heading" className="mb-8">
      <h2 id="appeals-heading" className="mb-4 text-xl font-bold text-white">
        Strike appeals to decide <span className="text-base font-medium text-slate-300">({items.length})</span>
      </h2>
      <ul className="grid gap-4 md:grid-cols-2">
        {items.map((strike) => (
          <li key={strike.id}>
            <StrikeCard strike={strike} showWorker />
          </li>
        ))}
      </ul>
      <LoadMore list={appeals} label="Load more appeals" />
    </section>
  );
}

/** One worker's record, oldest first, a page at a time. */
export function WorkerStrikeRecord({ workerId }: { workerId: string }) {
  const record = useInfiniteQuery({
    queryKey: queryKeys.workerStrikes(workerId),
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/workers/{id}/strikes', { params: { id: workerId }, query: { cursor: pageParam }, signal }),
    ...byCursor,
    staleTime: 0,
  });
  if (record.isPending) return <Loading label="Loading strikes…" />;
  if (record.isError) return <LoadError message="Failed to fetch strikes" onRetry={() => void record.refetch()} retrying={record.isFetching} />;
  const items = itemsOf(record.data);
  if (items.length === 0) return <p className="text-sm text-slate-300">No strikes on record.</p>;
  return (
    <div>
      <ul className="grid gap-3">
        {items.map((strike) => (
          <li key={strike.id}>
            <StrikeCard strike={strike} />
          </li>
        ))}
      </ul>
      <LoadMore list={record} label="Load more strikes" />
    </div>
  );
}

function StrikeCard({ strike, showWorker = false }: { strike: StrikeView; showWorker?: boolean }) {
  const headingId = useId();
  const undecided = strike.status === 'standing' || strike.status === 'appealed';
  return (
    <Card role="group" aria-labelledby={headingId} data-testid="owner-strike" className="h-full">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-white">
          {showWorker ? `${strike.workerName}: ` : ''}Late arrival, {formatDateTime(strike.at) ?? strike.at}
        </h3>
        <Badge tone={strikeStatusTone[strike.status]}>{strikeStatusLabels[strike.status]}</Badge>
      </div>
      <p className="mt-1 text-xs text-slate-400">Job {strike.jobId}</p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-200">
        {evidenceLines(strike.evidence).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {strike.appealNote ? (
        <p className="mt-3 text-sm text-slate-200">
          <span className="font-semibold text-white">Appeal{strike.appealedAt ? ` (${formatDateTime(strike.appealedAt)})` : ''}:</span> {strike.appealNote}
        </p>
      ) : null}
      {strike.decisionNote ? (
        <p className="mt-2 text-sm text-slate-200">
          <span className="font-semibold text-white">
            {strike.status === 'voided' ? 'Voided' : 'Upheld'} by {strike.decidedBy ?? 'the owner'}
            {strike.decidedAt ? ` (${formatDateTime(strike.decidedAt)})` : ''}:
          </span>{' '}
          {strike.decisionNote}
        </p>
      ) : null}
      {undecided ? <DecisionForm strike={strike} /> : null}
    </Card>
  );
}

/** Void (off the pro's count) or Uphold (kept for good), with a note the pro reads. */
function DecisionForm({ strike }: { strike: StrikeView }) {
  const queryClient = useQueryClient();
  const noteId = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const decide = useMutation({
    mutationFn: (decision: 'void' | 'uphold') =>
      decision === 'void'
        ? api('POST /api/admin/strikes/{id}/void', { params: { id: strike.id }, body: { note } })
        : api('POST /api/admin/strikes/{id}/uphold', { params: { id: strike.id }, body: { note } }),
    onMutate: () => {
      setError(undefined);
      setFailure(undefined);
    },
    onSuccess: (_answer, decision) =>
      toast(
        decision === 'void'
          ? { title: 'Strike Voided', description: `${strike.workerName}'s strike no longer counts.` }
          : { title: 'Strike Upheld', description: `${strike.workerName}'s strike stands.` },
      ),
    onError: (e) => {
      if (e instanceof ApiError && e.status === 400) setError(e.fields.note ?? errorMessage(e));
      else setFailure(errorMessage(e) ?? 'Failed to record the decision.');
    },
    onSettled: () =>
      Promise.all(
        [queryKeys.strikeAppeals, queryKeys.workerStrikes(strike.workerId), queryKeys.workers].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
  const submit = (decision: 'void' | 'uphold') => {
    if (!note.trim()) {
      setError('Write a note for the pro');
      document.getElementById(noteId)?.focus();
      return;
    }
    decide.mutate(decision);
  };
  return (
    <div className="mt-4 grid gap-3 border-t border-white/10 pt-4">
      <Field id={noteId} label={`Decision note for ${strike.workerName}`} hint="Required; the pro reads it with the strike." error={error}>
        <textarea rows={2} maxLength={MAX_DECISION_NOTE} value={note} onChange={(event) => setNote(event.target.value)} disabled={decide.isPending} />
      </Field>
      <FormAlert message={failure} />
      <div className="flex flex-wrap gap-3">
        <Button size="sm" onClick={() => submit('void')} disabled={decide.isPending} aria-label={`Void strike of ${strike.workerName}`}>
          {decide.isPending && decide.variables === 'void' ? 'Voiding…' : 'Void'}
        </Button>
        <Button size="sm" variant="destructive" onClick={() => submit('uphold')} disabled={decide.isPending} aria-label={`Uphold strike of ${strike.workerName}`}>
          {decide.isPending && decide.variables === 'uphold' ? 'Upholding…' : 'Uphold'}
        </Button>
      </div>
    </div>
  );
}
