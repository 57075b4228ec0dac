import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BadgeDollarSign, Check, Clock, FileText, LogOut, MapPin, Navigation, UserCog, Users, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CompletedJobView, JobOfferView, WorkerJobView } from '../../../../shared/schemas/job';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { useOnline } from '../../lib/offline-status';
import { paths } from '../../lib/paths';
import { useRealtimeEvent } from '../../lib/realtime';
import {
  arrivalCountdownApplies,
  crewPlaceText,
  estimatedHoursText,
  formatCountdown,
  formatKm,
  isOverdue,
  jobStateLabel,
  jobStateTone,
  OFFER_DETAILS_NOTE,
  remainingMs,
  serviceLabel,
} from './job-display';
import { readyToInvoice } from './earnings-summary';
import { refreshesHeldJobs, refreshesOffers } from './job-notifications';
import { useCompletedJobs, useHeldJobs, useJobOffers } from './jobs-api';
import { PayoutNotice } from './payout-setup';
import { useNow } from '../../lib/use-now';
import { workerCall } from './worker-api';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate } from '../../lib/money';
import { LoadError, Loading } from '../../components/ui/load-state';
import { formatHours } from '../../lib/money';
import { queryKeys } from '../../lib/query-keys';

/**
 * The dashboard's Jobs tab: offers to answer, the jobs held now, and the tiles;
 * then approved work waiting for an invoice, and a reminder while payouts are not set up.
 */
export function JobsPanel({ workerId, onLogout, note }: { workerId: string; onLogout: () => void; note?: ReactNode }) {
  const tile =
    'flex min-h-28 flex-col items-start justify-between gap-3 rounded-2xl border border-white/10 bg-slate-900/90 p-5 text-left text-white transition-colors hover:bg-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300';
  return (
    <div>
      {note}
      <div className="grid gap-8">
        <PayoutNotice />
        <OffersSection workerId={workerId} />
        <HeldJobsSection workerId={workerId} />
        <ReadyToInvoiceSection workerId={workerId} />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Link to={paths.workerEarnings} className={tile}>
            <BadgeDollarSign aria-hidden="true" className="size-6 text-amber-300" />
            <span className="font-semibold">Earnings</span>
          </Link>
          <Link to={paths.invoices} className={tile}>
            <FileText aria-hidden="true" className="size-6 text-amber-300" />
            <span className="font-semibold">Your invoices</span>
          </Link>
          <Link to={paths.workerProfile} className={tile}>
            <UserCog aria-hidden="true" className="size-6 text-amber-300" />
            <span className="font-semibold">Profile</span>
          </Link>
          <button type="button" onClick={onLogout} className={tile}>
            <LogOut aria-hidden="true" className="size-6 text-red-300" />
            <span className="font-semibold">Logout</span>
          </button>
        </div>
      </div>
    </div>
  );
}

/** An offer that is no longer open answers 404/409: it is gone either way, so it stays off the list. */
function offerIsGone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409);
}

function OffersSection({ workerId }: { workerId: string }) {
  const offers = useJobOffers(workerId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Passed offers stay hidden even if a poll lands before the decline does.
  const [passed, setPassed] = useState<ReadonlySet<string>>(() => new Set());

  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.jobOffers(workerId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.heldJobs(workerId) });
  };

  // A new offer shows the moment it is made, not at the next poll.
  useRealtimeEvent('notification', (notification) => {
    if (refreshesOffers(notification.type)) void queryClient.invalidateQueries({ queryKey: queryKeys.jobOffers(workerId) });
  });
  // An offer another pro took leaves the list the moment they take it.
  useRealtimeEvent('offer:withdrawn', () => void queryClient.invalidateQueries({ queryKey: queryKeys.jobOffers(workerId) }));

  const accept = useMutation({
    mutationFn: (jobId: string) => workerCall('POST /api/jobs/accept/{jobId}', { params: { jobId }, body: { workerId } }),
    onSuccess: (job) => {
      queryClient.setQueryData(queryKeys.job(job.id), job);
      refreshLists();
      toast({ title: 'Job Accepted!', description: job.address ? `Head to ${job.customerName} at ${job.address}.` : 'Open the job for the address.' });
      void navigate(paths.workerJob(job.id));
    },
    onError: (error) => {
      toast({ title: 'Failed to accept job', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
      refreshLists();
    },
  });

  const pass = useMutation({
    mutationFn: (jobId: string) => workerCall('POST /api/jobs/decline/{jobId}', { params: { jobId }, body: { workerId } }),
    onMutate: (jobId) => {
      setPassed((current) => new Set(current).add(jobId));
      toast({ title: 'Offer passed', description: 'The job goes to the next professional.' });
    },
    onError: (error, jobId) => {
      if (offerIsGone(error)) return;
      setPassed((current) => {
        const next = new Set(current);
        next.delete(jobId);
        return next;
      });
      toast({ title: 'Failed to pass offer', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.jobOffers(workerId) }),
  });

  const shown = (offers.data ?? []).filter((offer) => !passed.has(offer.id));
  // Offline the list is the last loaded one (the dashboard's banner says so): nothing can be answered.
  const online = useOnline();
  const busy = accept.isPending || !online;

  return (
    <section aria-labelledby="offers-heading">
      <h2 id="offers-heading" className="mb-4 text-xl font-semibold text-white">
        Job Offers
      </h2>
      {offers.isError && online ? <LoadError className="mb-4" message="Failed to fetch job offers" onRetry={() => void offers.refetch()} retrying={offers.isFetching} /> : null}
      {offers.isPending ? (
        online ? <Loading label="Loading job offers..." rowClassName="h-32 w-full" /> : null
      ) : offers.isError && !offers.data ? null : shown.length === 0 ? (
        <Card className="text-center">
          <p className="text-lg font-semibold text-white">No job offers right now</p>
          <p className="mt-2 text-slate-300">
            Stay clocked in and available: new offers appear here as soon as a nearby customer needs your trade.
          </p>
        </Card>
      ) : (
        <ul className="grid gap-4" aria-label="Job offers">
          {shown.map((offer) => (
            <li key={offer.id}>
              <OfferCard
                offer={offer}
                disabled={busy || (pass.isPending && pass.variables === offer.id)}
                onAccept={() => accept.mutate(offer.id)}
                onPass={() => pass.mutate(offer.id)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OfferCard({ offer, disabled, onAccept, onPass }: { offer: JobOfferView; disabled: boolean; onAccept: () => void; onPass: () => void }) {
  const now = useNow();
  const left = remainingMs(offer.offerExpiresAt, now);
  const expired = left === 0;
  const distance = formatKm(offer.distanceKm);
  const crew = crewPlaceText(offer.workerCount);
  const hours = estimatedHoursText(offer.estimatedHours);
  return (
    <article aria-label={`Offer: ${offer.service}`}>
      <Card className={expired ? 'opacity-75' : undefined}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h3 className="text-lg font-semibold text-white">{serviceLabel(offer)}</h3>
          </div>
          <p className="flex items-center gap-2 text-sm text-slate-200">
            <Clock aria-hidden="true" className="size-4 text-amber-300" />
            {expired ? null : (
              <span>
                Expires in <span className="font-mono font-semibold text-white">{formatCountdown(left)}</span>
              </span>
            )}
            {/* Announced once, when the offer runs out; the ticking countdown stays quiet. */}
            <span aria-live="polite">{expired ? <Badge tone="red">Expired</Badge> : null}</span>
          </p>
        </div>
        <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
          <div className="sm:col-span-2">
            <dt className="sr-only">Area</dt>
            <dd className="flex items-start gap-2 text-slate-100">
              <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
              <span>
                <span className="block">{offer.town ?? 'Town not given'}</span>
                <span className="block text-xs text-slate-300">{OFFER_DETAILS_NOTE}</span>
              </span>
            </dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-slate-300">Your rate:</dt>
            <dd className="font-semibold text-white">{formatHourlyRate(offer.hourlyRate)}</dd>
          </div>
          {distance ? (
            <div className="flex gap-1">
              <dt className="text-slate-300">Distance:</dt>
              <dd className="font-semibold text-white">{distance}</dd>
            </div>
          ) : null}
          {hours ? (
            <div className="flex gap-1">
              <dt className="text-slate-300">Expected:</dt>
              <dd className="font-semibold text-white">{hours}</dd>
            </div>
          ) : null}
          {crew ? (
            <div className="flex items-center gap-1 sm:col-span-2">
              <dt className="sr-only">Crew</dt>
              <dd className="flex items-center gap-2 font-semibold text-amber-200" data-testid="offer-crew">
                <Users aria-hidden="true" className="size-4 shrink-0" />
                {crew}
              </dd>
            </div>
          ) : null}
          <div className="sm:col-span-2">
            <dt className="sr-only">Description</dt>
            <dd className="whitespace-pre-line text-slate-200">{offer.description}</dd>
          </div>
        </dl>
        <div className="mt-5 flex flex-wrap gap-3">
          <Button onClick={onAccept} disabled={disabled || expired}>
            <Check aria-hidden="true" className="size-4" />
            Accept
          </Button>
          <Button variant="outline" onClick={onPass} disabled={disabled || expired}>
            <X aria-hidden="true" className="size-4" />
            Pass
          </Button>
        </div>
      </Card>
    </article>
  );
}

function HeldJobsSection({ workerId }: { workerId: string }) {
  const held = useHeldJobs(workerId);
  const queryClient = useQueryClient();
  const online = useOnline();
  useRealtimeEvent('notification', (notification) => {
    if (refreshesHeldJobs(notification.type)) void queryClient.invalidateQueries({ queryKey: queryKeys.heldJobs(workerId) });
  });
  return (
    <section aria-labelledby="today-heading">
      <h2 id="today-heading" className="mb-4 text-xl font-semibold text-white">
        Today’s Jobs
      </h2>
      {held.isError && online ? <LoadError className="mb-4" message="Failed to fetch active jobs" onRetry={() => void held.refetch()} retrying={held.isFetching} /> : null}
      {held.isPending ? (
        online ? <Loading label="Loading your jobs..." rowClassName="h-32 w-full" /> : null
      ) : held.isError && !held.data ? null : held.data.length === 0 ? (
        <Card className="text-center">
          <p className="text-lg font-semibold text-white">No jobs in progress</p>
          <p className="mt-2 text-slate-300">Jobs you accept appear here until you complete them.</p>
        </Card>
      ) : (
        <ul className="grid gap-4" aria-label="Today’s jobs">
          {held.data.map((job) => (
            <li key={job.id}>
              <HeldJobCard job={job} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function HeldJobCard({ job }: { job: WorkerJobView }) {
  const now = useNow();
  const counting = arrivalCountdownApplies(job.state, job.arriveBy);
  const overdue = isOverdue(job, now);
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 className="text-lg font-semibold">
          <Link
            to={paths.workerJob(job.id)}
            className="rounded text-white underline decoration-amber-300/60 underline-offset-4 hover:decoration-amber-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
          >
            {serviceLabel(job)}
          </Link>
        </h3>
        <div className="flex flex-wrap gap-2">
          <Badge tone={jobStateTone(job.state)}>{jobStateLabel(job.state)}</Badge>
          {overdue ? <Badge tone="red">Overdue</Badge> : null}
          {job.clientNotes && job.state === 'in_progress' ? <Badge tone="orange">Changes requested</Badge> : null}
          {job.arrivalClaim ? <Badge tone="blue">Arrival awaits the customer</Badge> : null}
        </div>
      </div>
      <dl className="mt-3 grid gap-2 text-sm">
        <div className="flex gap-1">
          <dt className="text-slate-300">Customer:</dt>
          <dd className="text-white">{job.customerName}</dd>
        </div>
        <div>
          <dt className="sr-only">Address</dt>
          <dd className="flex items-start gap-2 text-slate-100">
            <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
            {job.address}
          </dd>
        </div>
        {counting && !overdue ? (
          <div className="flex items-center gap-2">
            <dt className="flex items-center gap-2 text-slate-300">
              <Navigation aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
              Arrive within:
            </dt>
            <dd className="font-mono font-semibold text-white">{formatCountdown(remainingMs(job.arriveBy, now))}</dd>
          </div>
        ) : null}
      </dl>
    </Card>
  );
}

/**
 * Completed jobs the customer approved and nobody has invoiced yet (the earnings page's query).
 * Hidden when there are none: it is a to-do list, and an empty one says nothing useful.
 */
function ReadyToInvoiceSection({ workerId }: { workerId: string }) {
  const completed = useCompletedJobs(workerId);
  const ready = readyToInvoice(completed.data ?? []);
  if (completed.isError && !completed.data) {
    return <LoadError className="mb-4" message="Failed to fetch completed jobs" onRetry={() => void completed.refetch()} retrying={completed.isFetching} />;
  }
  if (ready.length === 0) return null;
  return (
    <section aria-labelledby="invoice-heading">
      <h2 id="invoice-heading" className="mb-4 text-xl font-semibold text-white">
        Ready to invoice
      </h2>
      <p className="mb-4 text-slate-300">The customer approved this work. Send your invoice to get paid.</p>
      <ul className="grid gap-4" aria-label="Ready to invoice">
        {ready.map((job) => (
          <li key={job.id}>
            <ReadyJobCard job={job} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ReadyJobCard({ job }: { job: CompletedJobView }) {
  const ended = formatDateTime(job.endedAt);
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 className="text-lg font-semibold">
          <Link
            to={paths.workerJob(job.id)}
            className="inline-flex items-center gap-2 rounded text-white underline decoration-amber-300/60 underline-offset-4 hover:decoration-amber-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
          >
            <FileText aria-hidden="true" className="size-5 shrink-0 text-amber-300" />
            {serviceLabel(job)}
            <span className="sr-only"> for {job.customerName}</span>
          </Link>
        </h3>
        <Badge tone="amber">Ready to invoice</Badge>
      </div>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
        <div className="flex gap-1">
          <dt className="text-slate-300">Customer:</dt>
          <dd className="text-white">{job.customerName}</dd>
        </div>
        {ended ? (
          <div className="flex gap-1">
            <dt className="text-slate-300">Completed:</dt>
            <dd className="text-white">{ended}</dd>
          </div>
        ) : null}
        <div className="flex gap-1">
          <dt className="text-slate-300">Billable hours:</dt>
          <dd className="text-white">{formatHours(job.totalHours)}</dd>
        </div>
      </dl>
    </Card>
  );
}
