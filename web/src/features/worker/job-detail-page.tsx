import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ArrowLeft, CheckCircle2, DoorOpen, ExternalLink, Mail, MapPin, MessageSquareWarning, Navigation, Phone, SearchX } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { WorkerJobView } from '../../../../shared/schemas/job';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { errorMessage } from '../../lib/api';
import { mailto, paths } from '../../lib/paths';
import { useJobRoom, useRealtimeEvent } from '../../lib/realtime';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  actionsFor,
  arrivalCountdownApplies,
  crewPlaceText,
  formatCountdown,
  isOverdue,
  jobStateLabel,
  jobStateTone,
  mapsUrl,
  OFFER_DETAILS_NOTE,
  remainingMs,
  serviceLabel,
  type WorkerAction,
} from './job-display';
import { arrivalToast, currentPosition } from './arrival';
import { isFinishedJob, JobInvoiceSection } from './job-invoice-section';
import { showsLiveSection } from './job-live';
import { JobLiveSection } from './job-live-section';
import { COMPLETE_REDIRECT_MS, isNotFound, usePublicConfig, useWorkerJob } from './jobs-api';
import { useWorkerSession } from './session';
import { useNow } from '../../lib/use-now';
import { isUnauthorized, workerCall } from './worker-api';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate } from '../../lib/money';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';

export default function WorkerJobPage() {
  useDocumentTitle('Job Details');
  const { id = '' } = useParams();
  const session = useWorkerSession();
  const signedIn = Boolean(session.token && session.worker);
  const job = useWorkerJob(id, signedIn);

  if (!signedIn || !session.worker) return <Navigate to={paths.workerLogin} replace />;

  let body: ReactNode;
  if (isNotFound(job.error)) {
    body = (
      <Card className="text-center">
        <SearchX aria-hidden="true" className="mx-auto mb-4 size-12 text-slate-300" />
        <h1 className="text-2xl font-bold text-white">Job Not Found</h1>
        <p className="mt-3 text-slate-200">
          This job does not exist, was reassigned, or is not yours. Your current jobs are on the dashboard’s Jobs tab.
        </p>
      </Card>
    );
  } else if (job.data) {
    body = (
      <>
        {job.isError && !isUnauthorized(job.error) ? (
          <LoadError className="mb-4" message="Failed to fetch job details" detail="Showing the last details loaded." onRetry={() => void job.refetch()} retrying={job.isFetching} />
        ) : null}
        <JobDetails job={job.data} workerId={session.worker.id} />
      </>
    );
  } else if (job.isError) {
    body = (
      <>
        <h1 className="sr-only">Job Details</h1>
        <LoadError className="mb-4" message="Failed to fetch job details" detail={errorMessage(job.error)} onRetry={() => void job.refetch()} retrying={job.isFetching} />
      </>
    );
  } else {
    body = (
      <Card>
        <h1 className="sr-only">Job Details</h1>
        <Loading label="Loading the job..." className="gap-4">
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-6 w-1/3" />
          <Skeleton className="h-24" />
          <Skeleton className="h-24" />
        </Loading>
      </Card>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link to={paths.workerDashboard} className={buttonClasses('outline', 'sm', 'mb-6')}>
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Dashboard
      </Link>
      {body}
    </div>
  );
}

function JobDetails({ job, workerId }: { job: WorkerJobView; workerId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const now = useNow();
  const config = usePublicConfig();
  const [completed, setCompleted] = useState(false);

  // The job's room for as long as its page is open (the live section holds it too while the job
  // is held); what happens to the job elsewhere refetches it at once.
  useJobRoom(job.id, 'worker');
  const refetchJob = (jobId: string | null | undefined) => {
    if (jobId === job.id) void queryClient.invalidateQueries({ queryKey: queryKeys.job(job.id) });
  };
  useRealtimeEvent('client_verification_response', (data) => refetchJob(data.requestId));
  useRealtimeEvent('payment_completed', (data) => refetchJob(data.requestId));
  useRealtimeEvent('notification', (data) => refetchJob(data.jobId));

  const remember = (next: WorkerJobView) => {
    queryClient.setQueryData(queryKeys.job(job.id), next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.heldJobs(workerId) });
  };

  const step = useMutation({
    mutationFn: async (state: 'en_route' | 'arrived' | 'in_progress') => {
      // Arriving is proven by where the device is; without a fix the server asks the customer instead.
      const position = state === 'arrived' ? await currentPosition() : null;
      return await workerCall('POST /api/jobs/{id}/state', { params: { id: job.id }, body: { state, workerId, ...(position ? { position } : {}) } });
    },
    onSuccess: (next, state) => {
      remember(next);
      toast(state === 'arrived' ? arrivalToast(next) : { title: 'Status Updated', description: `This job is now ${jobStateLabel(next.state).toLowerCase()}.` });
    },
    onError: (error) => {
      toast({ title: 'Failed to update job state', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: queryKeys.job(job.id) });
    },
  });

  const complete = useMutation({
    mutationFn: () => workerCall('POST /api/jobs/{id}/complete', { params: { id: job.id }, body: { workerId } }),
    onSuccess: (next) => {
      remember(next);
      void queryClient.invalidateQueries({ queryKey: queryKeys.completedJobs(workerId) });
      setCompleted(true);
      toast({ title: 'Job Completed!', description: 'Great work. It now counts toward your earnings.' });
    },
    onError: (error) => {
      toast({ title: 'Failed to complete job', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: queryKeys.job(job.id) });
    },
  });

  useEffect(() => {
    if (!completed) return;
    const timer = setTimeout(() => void navigate(paths.workerDashboard), COMPLETE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [completed, navigate]);

  const busy = step.isPending || complete.isPending || completed;
  const run = (action: WorkerAction) => {
    if (action.kind === 'complete') complete.mutate();
    else step.mutate(action.state);
  };

  const overdue = isOverdue(job, now);
  const counting = arrivalCountdownApplies(job.state, job.arriveBy);
  const maps = mapsUrl(job);
  const actions = actionsFor(job.nextStates);
  const supportEmail = config.data?.supportEmail;
  const claim = job.arrivalClaim ?? null;
  const locating = step.isPending && step.variables === 'arrived';

  return (
    <div className="grid gap-6">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <p className="text-sm font-medium text-slate-300">Job #{job.id.slice(-8).toUpperCase()}</p>
            <h1 className="mt-1 text-3xl font-bold tracking-tight text-white">{serviceLabel(job)}</h1>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {/* Polite, so each change of state (yours or the timer's) is read out once. */}
            <p aria-live="polite" className="flex items-center gap-2 text-sm text-slate-200">
              <span className="sr-only">Status:</span>
              <Badge tone={jobStateTone(job.state)} data-testid="job-state">
                {jobStateLabel(job.state)}
              </Badge>
              {overdue ? <Badge tone="red">Overdue</Badge> : null}
            </p>
          </div>
        </div>

        {counting && !overdue ? (
          <p className="mt-4 flex flex-wrap items-center gap-2 text-slate-100">
            <Navigation aria-hidden="true" className="size-5 text-amber-300" />
            Arrive within <span className="font-mono text-xl font-semibold text-white">{formatCountdown(remainingMs(job.arriveBy, now))}</span>
            <span className="text-sm text-slate-300">(by {formatDateTime(job.arriveBy)})</span>
          </p>
        ) : null}
        {job.state === 'offered' ? (
          <p className="mt-4 text-slate-200">
            This job is offered to you. Accept it from the dashboard’s Jobs tab to see the customer’s contact details.
          </p>
        ) : null}

        <div role="alert">
          {overdue ? (
            <div className="mt-4 flex items-start gap-3 rounded-lg bg-red-950/70 p-4 text-red-100">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-300" />
              <p>
                <strong className="font-semibold">This job is overdue. Contact support immediately.</strong>{' '}
                {supportEmail ? (
                  <a href={mailto(supportEmail, `Overdue job ${job.id}`)} className="font-semibold text-white underline underline-offset-4">
                    {supportEmail}
                  </a>
                ) : null}
              </p>
            </div>
          ) : null}
        </div>

        <div role="status">
          {claim ? (
            <section aria-labelledby="arrival-claim-heading" className="mt-4 rounded-lg bg-blue-950/70 p-4 text-blue-50 ring-1 ring-blue-400/40" data-testid="arrival-claim">
              <h2 id="arrival-claim-heading" className="flex items-center gap-2 font-semibold text-white">
                <DoorOpen aria-hidden="true" className="size-5 shrink-0 text-blue-300" />
                Waiting for the customer to confirm you have arrived
              </h2>
              <p className="mt-2 text-sm text-blue-100">{claim.message}</p>
            </section>
          ) : null}
        </div>

        {job.clientNotes && job.state === 'in_progress' ? (
          <section aria-labelledby="changes-heading" className="mt-4 rounded-lg bg-orange-950/70 p-4 text-orange-50 ring-1 ring-orange-400/40">
            <h2 id="changes-heading" className="flex items-center gap-2 font-semibold text-white">
              <MessageSquareWarning aria-hidden="true" className="size-5 shrink-0 text-orange-300" />
              The customer asked for changes
            </h2>
            <blockquote className="mt-2 whitespace-pre-line border-l-2 border-orange-300/60 pl-3 text-orange-100">{job.clientNotes}</blockquote>
            <p className="mt-2 text-sm text-orange-200">Finish what they asked, then complete the job again for their approval.</p>
          </section>
        ) : null}

        <div role="status">
          {completed ? (
            <p className="mt-4 flex items-center gap-2 rounded-lg bg-green-950/70 p-4 font-medium text-green-100">
              <CheckCircle2 aria-hidden="true" className="size-5 shrink-0" />
              Job completed. Opening your dashboard...
            </p>
          ) : null}
        </div>

        <p role="status" className="sr-only">
          {locating ? 'Checking your location...' : ''}
        </p>
        {actions.length > 0 ? (
          <div className="mt-6 flex flex-wrap gap-3">
            {actions.map((action) => (
              <Button key={action.label} onClick={() => run(action)} disabled={busy} size="lg" aria-busy={locating && action.label === 'Mark Arrived'}>
                {action.label}
              </Button>
            ))}
          </div>
        ) : null}
      </Card>

      {/* Keyed by job: a new job starts with sharing off and its own room. */}
      {showsLiveSection(job.state) ? <JobLiveSection key={job.id} job={job} onArrived={() => step.mutate('arrived')} busy={busy} /> : null}

      {isFinishedJob(job) ? <JobInvoiceSection job={job} workerId={workerId} feePercent={config.data?.platformFeePercent ?? null} /> : null}

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <h2 className="text-xl font-semibold text-white">Customer</h2>
          {job.customerName === undefined ? <p className="mt-4 text-sm text-slate-300">{OFFER_DETAILS_NOTE}</p> : null}
          <dl className="mt-4 grid gap-3 text-sm empty:hidden">
            {job.customerName !== undefined ? (
              <div>
                <dt className="text-slate-300">Name</dt>
                <dd className="font-semibold text-white">{job.customerName}</dd>
              </div>
            ) : null}
            {job.customerPhone ? (
              <div>
                <dt className="text-slate-300">Phone</dt>
                <dd>
                  <a href={`tel:${job.customerPhone.replace(/[^\d+]/g, '')}`} className="inline-flex items-center gap-2 font-semibold text-white underline underline-offset-4">
                    <Phone aria-hidden="true" className="size-4 text-amber-300" />
                    {job.customerPhone}
                  </a>
                </dd>
              </div>
            ) : null}
            {job.customerEmail ? (
              <div>
                <dt className="text-slate-300">Email</dt>
                <dd>
                  <a href={`mailto:${job.customerEmail}`} className="inline-flex items-center gap-2 break-all font-semibold text-white underline underline-offset-4">
                    <Mail aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
                    {job.customerEmail}
                  </a>
                </dd>
              </div>
            ) : null}
          </dl>
        </Card>

        <Card>
          <h2 className="text-xl font-semibold text-white">Location</h2>
          <p className="mt-4 flex items-start gap-2 text-slate-100">
            <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
            {job.address ?? job.town ?? 'Town not given'}
          </p>
          {maps ? (
            <a href={maps} target="_blank" rel="noopener noreferrer" className={buttonClasses('outline', 'sm', 'mt-4')}>
              <ExternalLink aria-hidden="true" className="size-4" /> Open in Maps<span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : null}
        </Card>
      </div>

      <Card>
        <h2 className="text-xl font-semibold text-white">Job</h2>
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-300">Service type</dt>
            <dd className="font-semibold text-white">{serviceLabel(job)}</dd>
          </div>
          <div>
            <dt className="text-slate-300">Hourly rate</dt>
            <dd className="font-semibold text-white">{formatHourlyRate(job.hourlyRate)}</dd>
          </div>
          {crewPlaceText(job.workerCount) ? (
            <div className="sm:col-span-2">
              <dt className="sr-only">Crew</dt>
              <dd className="font-semibold text-amber-200" data-testid="job-crew">
                {crewPlaceText(job.workerCount)}: each pro has a job of their own and invoices their own hours.
              </dd>
            </div>
          ) : null}
          <div className="sm:col-span-2">
            <dt className="text-slate-300">Description</dt>
            <dd className="whitespace-pre-line text-slate-100">{job.description}</dd>
          </div>
        </dl>
      </Card>
    </div>
  );
}
