import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, PauseCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { MAX_APPEAL_NOTE, type StrikeView, type WorkerStrikeRecord } from '../../../../shared/schemas/strikes';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { PageHeader } from '../../components/layout/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadError, Loading } from '../../components/ui/load-state';
import { toast } from '../../components/ui/toast-store';
import { evidenceLines, strikeStatusLabels, strikeStatusTone } from '../../domain/strikes/strike-display';
import { ApiError, errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { queryKeys } from '../../lib/query-keys';
import { workerCall, workerGet } from './worker-api';

/** The pro's strike record, refetched as often as their profile, so a decision shows without reloading. */
export function useStrikeRecord() {
  return useQuery<WorkerStrikeRecord>({
    queryKey: queryKeys.myStrikes,
    queryFn: ({ signal }) => workerGet(queryKeys.myStrikes, signal),
    refetchInterval: 15_000,
    staleTime: 0,
  });
}

/**
 * Each strike with what the timer saw and where it stands, newest first, and the form to appeal one
 * that still stands (once: the owner decides, and the decision's note shows here).
 */
export function StrikesPanel() {
  const record = useStrikeRecord();
  if (record.isPending) return <Loading label="Loading your strikes…" />;
  if (record.isError) return <LoadError message="Failed to fetch your strikes" onRetry={() => void record.refetch()} retrying={record.isFetching} />;
  const { items, strikes, strikesToSuspend } = record.data;
  return (
    <section aria-labelledby="strikes-heading" className="grid gap-4">
      <div>
        <h2 id="strikes-heading" className="text-xl font-bold text-white">
          Strikes
        </h2>
        <p className="mt-1 text-sm text-slate-200" data-testid="strike-count">
          {strikes} of {strikesToSuspend} strikes count now. Reaching {strikesToSuspend} suspends your account until the owner reviews it. A
          late arrival (not proven at the address within the grace time) gives a strike; you may appeal each one once.
        </p>
      </div>
      {items.length === 0 ? (
        <Card>
          <p className="text-slate-200">No strikes on your record. Keep arriving on time.</p>
        </Card>
      ) : (
        <ul className="grid gap-4">
          {items.map((strike) => (
            <li key={strike.id}>
              <StrikeCard strike={strike} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StrikeCard({ strike }: { strike: StrikeView }) {
  const headingId = useId();
  return (
    <Card role="group" aria-labelledby={headingId} data-testid="strike">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-lg font-semibold text-white">
          Late arrival, {formatDateTime(strike.at) ?? strike.at}
        </h3>
        <Badge tone={strikeStatusTone[strike.status]}>{strikeStatusLabels[strike.status]}</Badge>
      </div>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-200">
        {evidenceLines(strike.evidence).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {strike.appealNote ? (
        <p className="mt-3 text-sm text-slate-200">
          <span className="font-semibold text-white">Your appeal{strike.appealedAt ? ` (${formatDateTime(strike.appealedAt)})` : ''}:</span> {strike.appealNote}
        </p>
      ) : null}
      {strike.decisionNote ? (
        <p className="mt-2 text-sm text-slate-200">
          <span className="font-semibold text-white">
            {strike.status === 'voided' ? 'Voided by the owner' : 'Upheld by the owner'}
            {strike.decidedAt ? ` (${formatDateTime(strike.decidedAt)})` : ''}:
          </span>{' '}
          {strike.decisionNote}
        </p>
      ) : null}
      {strike.status === 'appealed' ? <p className="mt-2 text-sm text-amber-200">Your appeal waits for the owner’s decision.</p> : null}
      {strike.status === 'standing' ? <AppealForm strike={strike} /> : null}
    </Card>
  );
}

function AppealForm({ strike }: { strike: StrikeView }) {
  const queryClient = useQueryClient();
  const noteId = useId();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const appeal = useMutation({
    mutationFn: () => workerCall('POST /api/workers/strikes/{id}/appeal', { params: { id: strike.id }, body: { note } }),
    onMutate: () => {
      setError(undefined);
      setFailure(undefined);
    },
    onSuccess: () => {
      setOpen(false);
      toast({ title: 'Appeal Sent', description: 'The owner will review your strike; the decision shows here.' });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 400) setError(e.fields.note ?? errorMessage(e));
      else setFailure(errorMessage(e) ?? 'Failed to send the appeal. Please try again.');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.myStrikes }),
  });

  if (!open) {
    return (
      <Button variant="outline" size="sm" className="mt-4" onClick={() => setOpen(true)}>
        Appeal this strike
      </Button>
    );
  }
  return (
    <form
      className="mt-4 grid gap-3 border-t border-white/10 pt-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!note.trim()) {
          setError('Say why this strike is wrong');
          document.getElementById(noteId)?.focus();
          return;
        }
        appeal.mutate();
      }}
    >
      <Field id={noteId} label="Why is this strike wrong?" hint={`Once per strike, up to ${MAX_APPEAL_NOTE} characters. The owner reads it with the evidence.`} error={error}>
        <textarea rows={3} maxLength={MAX_APPEAL_NOTE} value={note} onChange={(event) => setNote(event.target.value)} disabled={appeal.isPending} />
      </Field>
      <FormAlert message={failure} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" size="sm" disabled={appeal.isPending}>
          {appeal.isPending ? 'Sending…' : 'Send appeal'}
        </Button>
        <Button type="button" variant="ghost" size="sm" disabled={appeal.isPending} onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * What a suspended pro sees instead of the dashboard: why (the owner's words or the strike limit's),
 * that voiding a strike does not lift the suspension by itself, and their record with the appeals.
 */
export function SuspendedScreen({ worker, onLogout }: { worker: WorkerSelf; onLogout: () => void }) {
  const record = useStrikeRecord();
  const reason = record.data?.statusReason;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <Card>
        <PageHeader icon={<PauseCircle aria-hidden="true" className="size-14 text-amber-300" />} title="Account Suspended" />
        <div className="grid gap-2 text-slate-200">
          <p>
            {worker.fullName}, your account is suspended: you receive no job offers and cannot go on call until the owner reviews your record.
          </p>
          {reason ? (
            <p data-testid="suspension-reason">
              <span className="font-semibold text-white">Reason:</span> {reason}
            </p>
          ) : null}
          <p>
            Appeal any strike you think is wrong below. A voided strike comes off your count, but the suspension lasts until the owner
            reinstates your account.
          </p>
        </div>
        <Button variant="outline" className="mt-6" onClick={onLogout}>
          <LogOut aria-hidden="true" className="size-4" /> Logout
        </Button>
      </Card>
      <div className="mt-8">
        <StrikesPanel />
      </div>
    </div>
  );
}

/** Why the account was terminated (or suspended), as the owner wrote it; nothing while it loads. */
export function StatusReason() {
  const record = useStrikeRecord();
  const reason = record.data?.statusReason;
  if (!reason) return null;
  return (
    <p className="mt-2" data-testid="status-reason">
      <span className="font-semibold text-white">Reason:</span> {reason}
    </p>
  );
}
