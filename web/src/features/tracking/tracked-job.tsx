import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Ban, Check, CircleCheck, ClipboardCheck, Copy, CreditCard, Info, Star } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { bookingStatusOf } from '../../../../shared/domain/booking-status';
import { categories } from '../../../../shared/categories';
import type { InvoiceSummary } from '../../../../shared/schemas/invoice';
import type { TrackedRequestView } from '../../../../shared/schemas/job';
import { formatMoney } from '../../lib/money';
import { LIVE_REQUEST_EVENTS, liveRequestId } from '../../domain/jobs/live-toasts';
import { JobTracking } from '../../domain/location/job-tracking';
import { pointOf } from '../../domain/location/tracking';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { EstimateSummary } from './estimate-summary';
import { onRealtimeEvent, rememberCustomerRequests, useJobRoom } from '../../lib/realtime';
import { crewActionOf, crewMemberNote, crewNowOf, trackPollMs } from './crew';
import { AssignedPro } from '../../domain/jobs/assigned-pro';
import { queryKeys } from '../../lib/query-keys';
import { statusBadgeOf } from './booking-status';
import { DispatchActions } from '../../domain/jobs/dispatch-actions';
import { useNow } from '../../lib/use-now';
import {
  TRACK_POLL_MS,
  isTrackingFinal,
  receiptOf,
  reofferNote,
  trackingActionOf,
  trackingLink,
  trackingNowOf,
  trackingStepsOf,
  type TrackingAction,
  type TrackingNow,
  type TrackingStep,
} from '../../domain/jobs/job-timeline';
import { formatDateTime } from '../../lib/date-time';
import { Loading } from '../../components/ui/load-state';

// Each dialog is loaded when first opened: most visits to this page never open either.
const InvoiceDialog = lazy(() => import('../../domain/invoices/invoice-dialog').then((m) => ({ default: m.InvoiceDialog })));
const WorkVerificationDialog = lazy(() =>
  import('../../domain/invoices/work-verification-dialog').then((m) => ({ default: m.WorkVerificationDialog })),
);
// The arrival question and the reschedule control show only on some jobs, and only for a while.
const ArrivalQuestion = lazy(() => import('./arrival-question').then((m) => ({ default: m.ArrivalQuestion })));
const RescheduleControl = lazy(() => import('./reschedule-control').then((m) => ({ default: m.RescheduleControl })));
// A crew's section and bill show only on a request for several pros (the bill once their work is approved).
const CrewSection = lazy(() => import('./crew-section'));
const CrewBill = lazy(() => import('./crew-bill'));

/**
 * One job on /track, whichever door it came in by: where it stands now, the one thing its customer
 * can do about it, the pro, the live map while they travel and work, the receipt once paid, and the
 * whole timeline. Someone else holding the link follows the same page without the actions.
 */
export function TrackedJob({ id }: { id: string }) {
  const navigate = useNavigate();
  // Polled until nothing more can happen; a job nobody took stays followed, since it can be offered
  // again; a crew's page also while any of its pros is on the way.
  const tracked = useQuery<TrackedRequestView>({
    queryKey: queryKeys.trackedJob(id),
    refetchInterval: (query) => (query.state.data ? trackPollMs(query.state.data, isTrackingFinal(query.state.data), TRACK_POLL_MS) : false),
    // Back from rating or paying, the page asks again rather than showing what it had.
    staleTime: 0,
  });
  useLiveTracking(tracked.data);

  if (tracked.data) return <TrackedView view={tracked.data} linkId={id} />;

  if (tracked.isError) {
    const missing = tracked.error instanceof ApiError && tracked.error.status === 404;
    return (
      <Card role="alert" className="mx-auto max-w-lg text-center">
        <h2 className="text-2xl font-bold text-white">Booking Not Found</h2>
        <p className="mt-2 text-slate-200">
          {missing ? 'The booking ID you entered could not be found.' : 'We could not load this booking. Please try again later.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {missing ? null : (
            <Button variant="outline" onClick={() => void tracked.refetch()} disabled={tracked.isFetching}>
              {tracked.isFetching ? 'Reloading...' : 'Reload'}
            </Button>
          )}
          <Button onClick={() => void navigate(paths.track())}>Try Again</Button>
        </div>
      </Card>
    );
  }

  return (
    <Card>
      <Loading label="Loading booking..." showLabel>
        <Skeleton className="h-6 w-1/3" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </Loading>
    </Card>
  );
}

/**
 * The job's live events refetch the page at once (the poll is the fallback). Its customer holds the
 * job's room while there is something to hear; anyone else holding the link has no socket identity.
 * On a crew's page an event about any of its pros' jobs refetches it too.
 */
function useLiveTracking(view: TrackedRequestView | undefined): void {
  const queryClient = useQueryClient();
  const customer = view?.viewer === 'customer';
  const jobId = view?.id ?? null;
  const crewIds = view?.crew?.map((member) => member.jobId).join('\n') ?? '';
  useJobRoom(customer && !isTrackingFinal(view) ? jobId : null, 'customer');

  // The socket connects only for a browser known to have requests: this page proves it has one.
  useEffect(() => {
    if (customer) rememberCustomerRequests(1);
  }, [customer]);

  useEffect(() => {
    if (!jobId) return;
    const followed = new Set([jobId, ...crewIds.split('\n').filter(Boolean)]);
    const refetch = (requestId: string | null) => {
      if (requestId !== null && followed.has(requestId)) void queryClient.invalidateQueries({ queryKey: queryKeys.trackedJobs });
    };
    const offs = [
      ...LIVE_REQUEST_EVENTS.map((event) => onRealtimeEvent(event, (data) => refetch(liveRequestId(event, data)))),
      // "Has your pro arrived?" comes and goes with these: the question shows the moment it is asked.
      onRealtimeEvent('arrival_claimed', (data) => refetch(data.requestId)),
      onRealtimeEvent('arrival_answered', (data) => refetch(data.requestId)),
    ];
    return () => offs.forEach((off) => off());
  }, [jobId, crewIds, queryClient]);
}

function categoryName(slug: string): string {
  return categories.find((c) => c.slug === slug)?.name ?? slug;
}

function TrackedView({ view, linkId }: { view: TrackedRequestView; linkId: string }) {
  const now = useNow(view.reofferUntil ? 30_000 : null);
  const status = bookingStatusOf(view.jobState);
  const badge = statusBadgeOf(status);
  const cancelled = view.jobState === 'cancelled';
  const customer = view.viewer === 'customer';
  const action = crewActionOf(view, trackingActionOf(view));
  const crew = view.crew;
  // A crew's lead shows the crew's one bill, never its own line as if it were the whole.
  const paidInvoice = !crew && view.invoice?.paymentStatus === 'paid' ? view.invoice : null;
  const showBill = customer && crew !== null && !cancelled && (view.verification.status === 'approved' || crew.some((member) => member.invoiceId !== null));
  const reoffer = cancelled ? null : reofferNote(view.reofferUntil, now);

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-slate-300">Booking number</p>
          <h2 className="font-mono text-2xl font-bold tracking-wider text-white">{view.number}</h2>
        </div>
        <div className="text-right">
          <p className="text-sm text-slate-300">Status</p>
          <Badge tone={badge.tone} data-testid="booking-status" data-status={status} className="mt-1 text-sm">
            {badge.label}
          </Badge>
        </div>
      </div>

      <NowPanel said={crew ? crewNowOf(view, crew, trackingNowOf(view)) : trackingNowOf(view)} cancelledAt={cancelled ? view.times.cancelledAt : null} cancelMessage={cancelled ? view.cancelMessage : null} />
      {/* Outside the live region: the minutes left change on their own and are not news. */}
      {reoffer ? <p className="mt-3 text-sm text-slate-200">{reoffer}</p> : null}

      {/* A crew is rescheduled, cancelled and tried again as a whole, from the request's page. */}
      {customer && !cancelled && view.requestedTime && !view.crewLeadId ? (
        <Suspense fallback={null}>
          <RescheduleControl request={view} />
        </Suspense>
      ) : null}

      {view.crewLeadId ? <CrewMemberNote view={view} leadId={view.crewLeadId} /> : null}

      {customer ? (
        <ActionArea view={view} action={action} />
      ) : (
        <p className="mt-4 flex items-start gap-2 text-sm text-slate-200" data-testid="viewer-note">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blue-300" />
          {viewerNote(view.viewer)}
        </p>
      )}

      {crew ? (
        <Suspense fallback={<Skeleton className="mt-6 h-32 w-full" />}>
          <CrewSection view={view} crew={crew} />
        </Suspense>
      ) : null}

      {view.worker && !cancelled && !crew ? (
        <div className="mt-6">
          <AssignedPro worker={view.worker} />
        </div>
      ) : null}

      {/* Outside the live region above: the tracking announces its own lines, and the map is not news. */}
      {view.status === 'In Progress' && !cancelled && !crew ? (
        <div className="mt-4">
          <JobTracking jobId={view.id} jobState={view.jobState} etaMinutes={view.etaMinutes} customer={pointOf(view.clientLatitude, view.clientLongitude)} />
        </div>
      ) : null}

      {paidInvoice ? <ReceiptView invoice={paidInvoice} /> : null}

      {showBill ? (
        <Suspense fallback={null}>
          <CrewBill requestId={view.id} crew={crew} />
        </Suspense>
      ) : null}

      <EstimateSummary view={crew ? { ...view, invoice: null } : view} />

      {cancelled ? null : <Timeline steps={trackingStepsOf(view)} />}

      <dl className="mt-8 grid gap-4 sm:grid-cols-2">
        {view.name !== undefined ? <Detail term="Name" value={view.name} /> : null}
        <Detail term="Service" value={view.service || categoryName(view.category)} />
        {view.location !== undefined ? <Detail term="Address" value={view.location} /> : <Detail term="Area" value={view.town ?? 'Not shown'} />}
        <Detail term="Requested" value={<Time iso={view.createdAt} />} />
        {view.description ? <Detail term="Details" value={view.description} wide /> : null}
      </dl>

      {customer && !cancelled ? <KeepLink id={linkId} number={view.number} /> : null}
    </Card>
  );
}

/** Why someone other than the customer sees no actions (and, holding only the link, no contact details). */
function viewerNote(viewer: TrackedRequestView['viewer']): string {
  if (viewer === 'owner') return 'You are viewing this as the owner: the customer verifies, pays and rates in the browser they booked with.';
  if (viewer === 'pro') return 'You are viewing this as the pro on the job: the customer verifies, pays and rates in the browser they booked with.';
  return "The customer's name, contact details and street address show only in the browser that booked. To verify, pay or rate, open this page there.";
}

const nowTones: Record<TrackingNow['tone'], string> = {
  info: 'bg-blue-950/60 ring-blue-400/40 text-blue-50',
  warning: 'bg-amber-950/70 ring-amber-400/40 text-amber-50',
  success: 'bg-green-950/60 ring-green-400/40 text-green-50',
  danger: 'bg-red-950/70 ring-red-400/40 text-red-50',
};

const nowIcons: Record<TrackingNow['tone'], ReactNode> = {
  info: <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0" />,
  warning: <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />,
  success: <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />,
  danger: <Ban aria-hidden="true" className="mt-0.5 size-5 shrink-0" />,
};

/** Where the job is, said once: polling changes it, and a polite live region reads the change. */
function NowPanel({ said, cancelledAt, cancelMessage }: { said: TrackingNow; cancelledAt: string | null; cancelMessage: string | null }) {
  return (
    <div aria-live="polite" aria-atomic="true" data-testid="tracking-now" className={cn('mt-6 flex items-start gap-3 rounded-xl p-4 ring-1', nowTones[said.tone])}>
      {nowIcons[said.tone]}
      <div className="grid gap-1">
        <p className="text-lg font-semibold">{said.headline}</p>
        {said.lines.map((line) => (
          <p key={line} className="text-sm">
            {line}
          </p>
        ))}
        {cancelledAt ? (
          <p className="text-sm">
            Cancelled <Time iso={cancelledAt} />
          </p>
        ) : null}
        {/* The owner's reason, when the owner cancelled it. */}
        {cancelMessage ? (
          <p className="text-sm" data-testid="cancel-message">
            Message from us: {cancelMessage}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The customer's one thing to do now, and the dialogs it opens. */
function ActionArea({ view, action }: { view: TrackedRequestView; action: TrackingAction }) {
  const queryClient = useQueryClient();
  const [verifying, setVerifying] = useState(false);
  const [viewing, setViewing] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.trackedJobs });
  const invoiceId = view.invoice?.id ?? null;
  const crew = view.crew !== null;

  return (
    <div className="mt-4 grid gap-2 empty:hidden">
      {/* Mounted whatever the action, so its word on a cancel outlives the buttons it replaces. */}
      {view.crewLeadId ? null : <DispatchActions request={view} />}
      {action === 'confirm-arrival' ? (
        <Suspense fallback={null}>
          <ArrivalQuestion request={view} />
        </Suspense>
      ) : null}
      {action === 'verify' ? (
        <Button className="justify-self-start" onClick={() => setVerifying(true)}>
          <ClipboardCheck aria-hidden="true" className="size-4" />
          {crew ? "Verify the crew's work" : 'Verify Work'}
        </Button>
      ) : null}
      {action === 'pay' ? (
        <Button className="justify-self-start" onClick={() => setViewing(true)}>
          <CreditCard aria-hidden="true" className="size-4" />
          View &amp; Pay Invoice
        </Button>
      ) : null}
      {action === 'rate' ? (
        <Link to={paths.rate(view.id)} className={buttonClasses('primary', 'md', 'justify-self-start')}>
          <Star aria-hidden="true" className="size-4" />
          {crew && view.worker ? `Rate ${view.worker.name}` : 'Rate your pro'}
        </Link>
      ) : null}
      <Suspense fallback={null}>
        {verifying ? (
          <WorkVerificationDialog request={view} crewSize={crew ? view.workerCount : undefined} onDecided={refresh} onClose={() => setVerifying(false)} />
        ) : null}
        {viewing && invoiceId ? (
          <InvoiceDialog
            invoiceId={invoiceId}
            estimatedTotal={view.estimate?.totalCost ?? null}
            onClose={() => {
              setViewing(false);
              refresh();
            }}
          />
        ) : null}
      </Suspense>
    </div>
  );
}

/** A crew member's own page: its pro's steps are here, while verifying and paying happen once for the crew on the request's page. */
function CrewMemberNote({ view, leadId }: { view: TrackedRequestView; leadId: string }) {
  return (
    <p className="mt-4 flex flex-wrap items-start gap-2 text-sm text-slate-100" data-testid="crew-member-note">
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blue-300" />
      <span>{crewMemberNote(view.workerCount)}</span>
      <Link to={paths.track(leadId)} className="font-medium text-amber-300 underline-offset-4 hover:underline">
        Open the request's page
      </Link>
    </p>
  );
}

function Timeline({ steps }: { steps: TrackingStep[] }) {
  return (
    <section aria-labelledby="progress-title" className="mt-8">
      <h3 id="progress-title" className="text-lg font-semibold text-white">
        Progress
      </h3>
      <ol className="mt-4 grid gap-2">
        {steps.map((step, index) => {
          const current = step.state === 'current';
          const done = step.state === 'done';
          return (
            <li
              key={step.key}
              aria-current={current ? 'step' : undefined}
              data-step={step.key}
              data-state={step.state}
              className={cn(
                'flex items-center gap-3 rounded-lg px-3 py-2',
                current ? (step.problem ? 'bg-amber-950/70 ring-2 ring-amber-300' : 'bg-amber-400/15 ring-2 ring-amber-300') : 'bg-slate-950/50',
              )}
            >
              {/* The list's own numbering is what assistive technology reads; this is its picture. */}
              <span
                aria-hidden="true"
                className={cn(
                  'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
                  done ? 'bg-green-500 text-slate-950' : current ? 'bg-amber-300 text-slate-950' : 'bg-slate-700 text-slate-100',
                )}
              >
                {done ? <Check aria-hidden="true" className="size-5" /> : step.problem ? <AlertTriangle aria-hidden="true" className="size-4" /> : index + 1}
              </span>
              <span className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3">
                <span className={cn('text-sm', done || current ? 'font-semibold text-white' : 'text-slate-300')}>
                  {step.label}
                  <span className="sr-only">{current ? ' (current step)' : done ? ' (done)' : ' (not yet)'}</span>
                </span>
                {step.at ? (
                  <span className="text-xs text-slate-300">
                    <Time iso={step.at} />
                  </span>
                ) : null}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function ReceiptView({ invoice }: { invoice: InvoiceSummary }) {
  const receipt = receiptOf(invoice);
  return (
    <section aria-labelledby="receipt-title" className="mt-6 rounded-xl bg-slate-950/60 p-4" data-testid="receipt">
      <h3 id="receipt-title" className="text-lg font-semibold text-white">
        Receipt
      </h3>
      <p className="text-sm text-slate-300">
        Invoice <span className="font-mono text-slate-100">#{receipt.invoiceNumber}</span>
        {receipt.paidAt ? (
          <>
            {' '}
            · Paid <Time iso={receipt.paidAt} />
          </>
        ) : null}
      </p>
      <table className="mt-2 w-full text-sm">
        <caption className="sr-only">Amounts paid</caption>
        <tbody className="divide-y divide-white/10">
          {receipt.lines.map((line) => (
            <tr key={line.label}>
              <th scope="row" className={cn('py-1.5 text-left', line.total ? 'font-bold text-white' : 'font-normal text-slate-300')}>
                {line.label}
              </th>
              <td className={cn('py-1.5 text-right tabular-nums', line.total ? 'font-bold text-white' : 'text-slate-100')}>{formatMoney(line.cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The link and number to keep: the link follows the job from anywhere, the number with the phone finds it again. */
function KeepLink({ id, number }: { id: string; number: string }) {
  const link = trackingLink(window.location.origin, id);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast({ title: 'Link copied', description: 'Keep it to follow this booking from any device.' });
    } catch {
      setCopied(false);
      toast({ title: 'Could not copy the link', description: 'Select the link and copy it.', variant: 'destructive' });
    }
  };
  return (
    <section aria-labelledby="keep-link-title" className="mt-8 grid gap-3 rounded-xl bg-slate-950/60 p-4">
      <h3 id="keep-link-title" className="text-lg font-semibold text-white">
        Keep track of it
      </h3>
      <p className="text-sm text-slate-200">
        Booking number <span className="font-mono font-semibold text-white">{number}</span>. Keep this number and your phone number to track it later.
      </p>
      <div className="grid gap-2 sm:grid-cols-[1fr_auto]">
        <label htmlFor="tracking-link" className="sr-only">
          Tracking link
        </label>
        <input
          id="tracking-link"
          type="text"
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 font-mono text-sm text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
        />
        <Button variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" className="size-4" />
          Copy link
        </Button>
      </div>
      <p role="status" className="text-sm text-green-200">
        {copied ? 'Link copied.' : ''}
      </p>
    </section>
  );
}

function Time({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso) ?? iso}</time>;
}

function Detail({ term, value, wide }: { term: string; value: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-sm text-slate-300">{term}</dt>
      <dd className="mt-0.5 break-words text-slate-100">{value}</dd>
    </div>
  );
}
