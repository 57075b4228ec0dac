import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { jobEventLabel } from '../../../../shared/domain/job-history';
import { CANCEL_MESSAGE_MAX, type JobAdminDetail, type JobTimelineEvent } from '../../../../shared/schemas/owner-jobs';
import { PageLoading } from '../../components/layout/page-loading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { inputClasses } from '../../components/ui/field';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadError, Loading } from '../../components/ui/load-state';
import { toast } from '../../components/ui/toast-store';
import type { AdminStatus } from '../../lib/admin-status';
import { api, errorMessage } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate, formatHours } from '../../lib/money';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { useDocumentTitle } from '../../lib/use-document-title';
import { label } from './format';
import { attentionText, jobStateText, jobStateTone, moneyText } from './jobs-format';
import { useOwnerLiveRefresh } from './use-owner-live';

/** While the owner watches a job, it is read again this often (and on focus and owner notifications). */
const JOB_REFRESH_MS = 10_000;

/** The owner's page of one job: what it is, every step it went through, and what the owner can do now. */
export default function JobPage() {
  useDocumentTitle('Job');
  const status = useQuery<AdminStatus>({ queryKey: queryKeys.adminStatus, refetchOnMount: 'always' });
  if (status.isError || (status.isFetchedAfterMount && !status.isFetching && status.data?.isAdmin !== true)) {
    return <Navigate to={paths.adminLogin} replace />;
  }
  if (!status.isFetchedAfterMount || status.data?.isAdmin !== true) return <PageLoading />;
  return <OwnerJob />;
}

function OwnerJob() {
  useOwnerLiveRefresh();
  const { id = '' } = useParams();
  const job = useQuery({
    queryKey: queryKeys.adminJob(id),
    queryFn: ({ signal }) => api('GET /api/admin/jobs/{id}', { params: { id }, signal }),
    refetchInterval: JOB_REFRESH_MS,
  });
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <Link to={paths.adminTab('jobs')} className="mb-6 inline-flex items-center gap-2 text-sm text-slate-200 underline-offset-2 hover:underline">
        <ArrowLeft aria-hidden className="h-4 w-4" /> All jobs
      </Link>
      {job.isPending ? (
        <Loading label="Loading the job…" />
      ) : job.isError ? (
        <LoadError message={errorMessage(job.error) ?? 'Failed to fetch the job'} onRetry={() => void job.refetch()} retrying={job.isFetching} />
      ) : (
        <JobDetail detail={job.data} />
      )}
    </div>
  );
}

function JobDetail({ detail }: { detail: JobAdminDetail }) {
  const { job } = detail;
  const facts: [string, string][] = [
    ['Customer', `${job.customerName} · ${detail.customerPhone}${detail.customerEmail ? ` · ${detail.customerEmail}` : ''}`],
    ['Address', job.address],
    ['Pro', job.assignedPro ? (job.assignedPro.name ?? job.assignedPro.id) : '—'],
    ['Rate', job.hourlyRate !== null ? formatHourlyRate(job.hourlyRate) : '—'],
    ['Pros offered', String(job.offersMade)],
    ['Created', formatDateTime(job.createdAt) ?? '—'],
    ['Accepted', formatDateTime(job.acceptedAt) ?? '—'],
    ['Arrive by', formatDateTime(job.arriveBy) ?? '—'],
    ['Arrived', formatDateTime(job.arrivedAt) ?? '—'],
    ['Started', formatDateTime(job.startedAt) ?? '—'],
    ['Ended', formatDateTime(job.endedAt) ?? '—'],
    ['Hours', job.totalHours !== null ? formatHours(job.totalHours) : '—'],
    ['Invoice', moneyText(job)],
  ];
  return (
    <div className="grid gap-8">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-white">
          {job.service} <span className="font-mono text-xl text-slate-300">#{job.number}</span>
        </h1>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <Badge tone={jobStateTone(job)}>{jobStateText(job)}</Badge>
          {job.attention ? <Badge tone="red">{attentionText[job.attention]}</Badge> : null}
        </div>
      </header>

      <Card className="p-5">
        <p className="mb-4 text-slate-100">{detail.description}</p>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {facts.map(([name, value]) => (
            <div key={name} className="flex gap-2">
              <dt className="w-28 shrink-0 font-semibold text-slate-300">{name}</dt>
              <dd className="text-slate-100">{value}</dd>
            </div>
          ))}
        </dl>
        {detail.cancelMessage ? <FormAlert className="mt-4" title="Cancelled by the owner" message={detail.cancelMessage} /> : null}
        {detail.openOffers.length > 0 ? (
          <div className="mt-4 text-sm text-slate-200">
            <h2 className="font-semibold text-white">Waiting for an answer from</h2>
            <ul className="mt-1">
              {detail.openOffers.map((offer) => (
                <li key={offer.worker.id}>
                  {offer.worker.name ?? offer.worker.id} (until {formatDateTime(offer.expiresAt, 'time')})
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>

      <Actions detail={detail} />

      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className="mb-3 text-xl font-bold text-white">
          Timeline
        </h2>
        <Timeline events={detail.timeline} />
      </section>
    </div>
  );
}

function actorText(event: JobTimelineEvent): string {
  switch (event.actor.role) {
    case 'owner':
      return `by the owner${event.actor.name ? ` (${event.actor.name})` : ''}`;
    case 'customer':
      return `by the customer${event.actor.name ? ` (${event.actor.name})` : ''}`;
    case 'worker':
      return `by ${event.actor.name ?? 'the pro'}`;
    default:
      return 'by the system';
  }
}

function Timeline({ events }: { events: JobTimelineEvent[] }) {
  if (events.length === 0) return <p className="text-sm text-slate-300">No steps recorded for this job.</p>;
  return (
    <ol className="grid gap-2" aria-label="Job timeline">
      {events.map((event) => (
        <li key={event.id} className="rounded-lg border border-white/10 bg-white/5 px-4 py-2 text-sm">
          <span className="font-semibold text-white">{jobEventLabel(event.type)}</span>
          {event.worker && event.actor.id !== event.worker.id ? <span className="text-slate-200"> · {event.worker.name ?? event.worker.id}</span> : null}
          <span className="text-slate-300"> · {actorText(event)}</span>
          <time dateTime={event.at} className="float-right text-xs text-slate-400">
            {formatDateTime(event.at, 'time-seconds')}
          </time>
          {event.detail ? <p className="mt-1 text-slate-300">{event.detail}</p> : null}
        </li>
      ))}
    </ol>
  );
}

function Actions({ detail }: { detail: JobAdminDetail }) {
  const queryClient = useQueryClient();
  const { job } = detail;
  const [error, setError] = useState<string | null>(null);
  const done = (title: string) => (next: JobAdminDetail) => {
    setError(null);
    queryClient.setQueryData(queryKeys.adminJob(job.id), next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.jobs });
    toast({ title });
  };
  const failed = (e: unknown) => setError(errorMessage(e) ?? 'That did not work. Please try again.');
  const reoffer = useMutation({
    mutationFn: () => api('POST /api/admin/jobs/{id}/reoffer', { params: { id: job.id } }),
    onSuccess: done('Search started again'),
    onError: failed,
  });
  if (!detail.canReoffer && !detail.canOffer && !detail.canCancel) return null;
  return (
    <section aria-labelledby="actions-heading" className="grid gap-4">
      <h2 id="actions-heading" className="text-xl font-bold text-white">
        Actions
      </h2>
      <FormAlert message={error} />
      {detail.canReoffer ? (
        <div>
          <Button onClick={() => reoffer.mutate()} disabled={reoffer.isPending} aria-busy={reoffer.isPending}>
            {reoffer.isPending ? 'Searching…' : 'Offer again'}
          </Button>
          <p className="mt-1 text-xs text-slate-300">Starts the search afresh, as the customer&apos;s Try again does.</p>
        </div>
      ) : null}
      {detail.canOffer ? <OfferToPro jobId={job.id} category={job.category} onDone={done('Offer sent')} onError={failed} /> : null}
      {detail.canCancel ? <CancelJob jobId={job.id} onDone={done('Job cancelled')} onError={failed} /> : null}
    </section>
  );
}

function OfferToPro({ jobId, category, onDone, onError }: { jobId: string; category: string; onDone: (d: JobAdminDetail) => void; onError: (e: unknown) => void }) {
  const id = useId();
  const [workerId, setWorkerId] = useState('');
  const pros = useQuery({
    queryKey: queryKeys.availableWorkers(category),
    queryFn: ({ signal }) => api('GET /api/admin/workers/available', { query: { category }, signal }),
  });
  const offer = useMutation({
    mutationFn: (chosen: string) => api('POST /api/admin/jobs/{id}/offer', { params: { id: jobId }, body: { workerId: chosen } }),
    onSuccess: (next) => {
      setWorkerId('');
      void pros.refetch();
      onDone(next);
    },
    onError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (workerId) offer.mutate(workerId);
  };
  const list = pros.data?.items ?? [];
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Offer the job to a pro">
      <div className="min-w-64">
        <label htmlFor={`${id}-pro`} className="mb-1 block text-sm font-semibold text-slate-100">
          Offer to a pro of the trade
        </label>
        <select id={`${id}-pro`} value={workerId} onChange={(e) => setWorkerId(e.target.value)} className={`${inputClasses} py-2 text-sm`} disabled={pros.isPending}>
          <option value="">{pros.isPending ? 'Loading pros…' : list.length ? 'Choose an available pro' : `No ${label(category)} pro is free now`}</option>
          {list.map((pro) => (
            <option key={pro.id} value={pro.id}>
              {pro.fullName} · {formatHourlyRate(pro.hourlyRate)}
              {pro.strikes ? ` · ${pro.strikes} strike${pro.strikes === 1 ? '' : 's'}` : ''}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary" disabled={!workerId || offer.isPending} aria-busy={offer.isPending}>
        {offer.isPending ? 'Offering…' : 'Offer'}
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={() => void pros.refetch()} disabled={pros.isFetching}>
        Refresh pros
      </Button>
    </form>
  );
}

function CancelJob({ jobId, onDone, onError }: { jobId: string; onDone: (d: JobAdminDetail) => void; onError: (e: unknown) => void }) {
  const id = useId();
  const [message, setMessage] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const cancel = useMutation({
    mutationFn: (text: string) => api('POST /api/admin/jobs/{id}/cancel', { params: { id: jobId }, body: { message: text } }),
    onSuccess: onDone,
    onError,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return setFieldError('Write a message for the customer: they see it on their request.');
    setFieldError(null);
    cancel.mutate(text);
  };
  return (
    <form onSubmit={submit} className="grid gap-2" aria-label="Cancel the job">
      <label htmlFor={`${id}-message`} className="text-sm font-semibold text-slate-100">
        Cancel with a message to the customer
      </label>
      <textarea
        id={`${id}-message`}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        maxLength={CANCEL_MESSAGE_MAX}
        rows={3}
        aria-invalid={fieldError ? true : undefined}
        aria-describedby={fieldError ? `${id}-error` : undefined}
        className={`${inputClasses} text-sm`}
      />
      {fieldError ? (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {fieldError}
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="destructive" disabled={cancel.isPending} aria-busy={cancel.isPending}>
          {cancel.isPending ? 'Cancelling…' : 'Cancel job'}
        </Button>
      </div>
    </form>
  );
}
