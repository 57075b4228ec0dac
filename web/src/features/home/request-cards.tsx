import { Ban, CircleCheck, Clock, MapPinned, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { completedHeadline } from '../../domain/invoices/invoice-rules';
import { RequestInvoiceActions } from '../../domain/invoices/request-invoice-actions';
import { JobTracking } from '../../domain/location/job-tracking';
import { pointOf } from '../../domain/location/tracking';
import { ReviewPrompt } from '../../domain/reviews/review-prompt';
import { Badge } from '../../components/ui/badge';
import { paths } from '../../lib/paths';
import { AssignedPro } from '../../domain/jobs/assigned-pro';
import { DispatchActions } from '../../domain/jobs/dispatch-actions';
import { useNow } from '../../lib/use-now';
import { offersText, reofferNote } from '../../domain/jobs/job-timeline';
import { requestBadgeTone, requestCardOf, type RequestCard } from './request-card';
import { formatDateTime } from '../../lib/date-time';

/**
 * The customer's request cards (status, invoice and payment, review, live tracking). Their own
 * chunk, loaded by request-list.tsx only when there are requests to show: a first visit never
 * loads the invoice, review and map code it cannot use.
 */
export default function RequestCards({ requests }: { requests: readonly ServiceRequestView[] }) {
  return (
    <ul className="grid gap-4">
      {requests.map((request) => (
        <li key={request.id}>
          <RequestCardView request={request} />
        </li>
      ))}
    </ul>
  );
}

function RequestCardView({ request }: { request: ServiceRequestView }) {
  const { number } = request;
  const card = requestCardOf(request);
  return (
    <article aria-label={`Request ${number}`} className="rounded-2xl bg-slate-900/90 p-5 text-slate-100 ring-1 ring-white/10">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold text-white">{request.service}</h3>
          <p className="text-sm text-slate-300">
            {request.kind === 'booking' ? 'Booking' : 'Request'} number <span className="font-mono font-semibold text-slate-100">{number}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {card.kind === 'cancelled' ? <Badge tone="red">Cancelled</Badge> : <Badge tone={requestBadgeTone(request.status)}>{request.status}</Badge>}
          <Link
            to={paths.track(request.id)}
            className="inline-flex items-center gap-1 text-sm font-semibold text-amber-300 underline underline-offset-4"
          >
            <MapPinned aria-hidden="true" className="size-4" />
            Track<span className="sr-only"> request {number}</span>
          </Link>
        </div>
      </div>
      <dl className="mt-3 grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-3">
        <dt className="text-slate-300">Location</dt>
        <dd className="break-words">{request.location}</dd>
        <dt className="text-slate-300">Requested</dt>
        <dd>
          <time dateTime={request.createdAt}>{formatDateTime(request.createdAt) ?? request.createdAt}</time>
        </dd>
      </dl>
      {/* Polling changes this part; a polite live region tells screen readers when it does. */}
      <div aria-live="polite" className="mt-4 grid gap-3 border-t border-white/10 pt-4">
        <CardStatus card={card} request={request} />
        {/* Outside the status switch, so they keep their state (and focus) when a poll moves the card on. */}
        <RequestInvoiceActions request={request} />
        <ReviewPrompt request={request} />
      </div>
      {/* Outside the live region: the minutes left change on their own, and the buttons are not news. */}
      <div className="mt-3 grid gap-2 empty:hidden">
        {request.canRetry ? <ReofferNote until={request.reofferUntil} /> : null}
        <DispatchActions request={request} />
      </div>
      {/* Outside the live region above: the tracking announces its own lines, and the map is not news. */}
      {card.kind === 'in-progress' ? (
        <div className="mt-3">
          <JobTracking
            jobId={request.id}
            jobState={request.jobState}
            etaMinutes={request.etaMinutes}
            customer={pointOf(request.clientLatitude, request.clientLongitude)}
          />
        </div>
      ) : null}
    </article>
  );
}

type StatusFields = 'invoice' | 'offersOutstanding';

function CardStatus({ card, request }: { card: RequestCard; request: Pick<ServiceRequestView, StatusFields> }) {
  switch (card.kind) {
    case 'waiting':
      return (
        <div className="grid gap-2">
          <p className="flex items-center gap-2 font-medium text-amber-200">
            <Clock aria-hidden="true" className="size-5 shrink-0" />
            Waiting for worker assignment
          </p>
          {request.offersOutstanding > 0 ? <p className="text-sm text-slate-200">{offersText(request.offersOutstanding)}.</p> : null}
          {card.reassigned ? <ReassignedNote /> : null}
        </div>
      );
    case 'no-worker':
      return (
        <div className="grid gap-2">
          <p className="flex items-center gap-2 font-semibold text-red-200">
            <SearchX aria-hidden="true" className="size-5 shrink-0" />
            No worker available
          </p>
          {card.reassigned ? (
            <p className="text-sm text-slate-200">Your previous professional could not arrive in time.</p>
          ) : null}
          <p className="text-sm text-slate-200">No nearby professional accepted your request in time. Try again to ask them once more.</p>
        </div>
      );
    case 'in-progress':
      return <div className="grid gap-3">{card.worker ? <AssignedPro worker={card.worker} /> : null}</div>;
    case 'completed':
      return (
        <div className="grid gap-3">
          <p className="flex items-center gap-2 font-medium text-green-200">
            <CircleCheck aria-hidden="true" className="size-5 shrink-0" />
            {completedHeadline(request)}
          </p>
        </div>
      );
    case 'cancelled':
      return (
        <p className="flex items-center gap-2 font-medium text-slate-200">
          <Ban aria-hidden="true" className="size-5 shrink-0" />
          This request was cancelled.
        </p>
      );
  }
}

/** How long a pro coming on call nearby still gets the job without anyone pressing anything. */
function ReofferNote({ until }: { until: string | null }) {
  const now = useNow(until ? 30_000 : null);
  const note = reofferNote(until, now);
  return note ? <p className="text-sm text-slate-200">{note}</p> : null;
}

function ReassignedNote() {
  return <p className="text-sm text-slate-200">Your previous professional could not arrive in time; we are finding you another.</p>;
}
