import { CircleCheck, Clock, Phone, SearchX } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AssignedWorkerView, ServiceRequestView } from '../../../../shared/schemas/job';
import { requestNumber } from '../../../../shared/domain/requests';
import { completedHeadline } from '../../components/invoices/invoice-rules';
import { RequestInvoiceActions } from '../../components/invoices/request-invoice-actions';
import { JobTracking } from '../../components/location/job-tracking';
import { pointOf } from '../../components/location/tracking';
import { ReviewPrompt } from '../../components/reviews/review-prompt';
import { Badge } from '../../components/ui/badge';
import { paths } from '../../lib/paths';
import { formatCreatedAt, initialsOf, requestBadgeTone, requestCardOf, type RequestCard } from './request-card';

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
  const number = requestNumber(request.id);
  const card = requestCardOf(request);
  return (
    <article aria-label={`Request ${number}`} className="rounded-2xl bg-slate-900/90 p-5 text-slate-100 ring-1 ring-white/10">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold text-white">{request.service}</h3>
          <p className="text-sm text-slate-300">
            Request ID <span className="font-mono font-semibold text-slate-100">{number}</span>
          </p>
        </div>
        <Badge tone={requestBadgeTone(request.status)}>{request.status}</Badge>
      </div>
      <dl className="mt-3 grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-3">
        <dt className="text-slate-300">Location</dt>
        <dd className="break-words">{request.location}</dd>
        <dt className="text-slate-300">Requested</dt>
        <dd>
          <time dateTime={request.createdAt}>{formatCreatedAt(request.createdAt)}</time>
        </dd>
      </dl>
      {/* Polling changes this part; a polite live region tells screen readers when it does. */}
      <div aria-live="polite" className="mt-4 grid gap-3 border-t border-white/10 pt-4">
        <CardStatus card={card} request={request} />
        {/* Outside the status switch, so they keep their state (and focus) when a poll moves the card on. */}
        <RequestInvoiceActions request={request} />
        <ReviewPrompt request={request} />
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

function CardStatus({ card, request }: { card: RequestCard; request: Pick<ServiceRequestView, 'invoice'> }) {
  switch (card.kind) {
    case 'waiting':
      return (
        <div className="grid gap-2">
          <p className="flex items-center gap-2 font-medium text-amber-200">
            <Clock aria-hidden="true" className="size-5 shrink-0" />
            Waiting for worker assignment
          </p>
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
          <p className="text-sm text-slate-200">
            No nearby professional accepted your request in time. Please try again later or call support.
          </p>
          <Link to={paths.contact} className="justify-self-start text-sm font-semibold text-amber-300 underline underline-offset-4">
            Contact support
          </Link>
        </div>
      );
    case 'in-progress':
      return (
        <div className="grid gap-3">{card.worker ? <AssignedWorker worker={card.worker} /> : null}</div>
      );
    case 'completed':
      return (
        <div className="grid gap-3">
          <p className="flex items-center gap-2 font-medium text-green-200">
            <CircleCheck aria-hidden="true" className="size-5 shrink-0" />
            {completedHeadline(request)}
          </p>
        </div>
      );
  }
}

function ReassignedNote() {
  return <p className="text-sm text-slate-200">Your previous professional could not arrive in time; we are finding you another.</p>;
}

function AssignedWorker({ worker }: { worker: AssignedWorkerView }) {
  // A photo link can expire or break; the initials stand in rather than a broken image.
  const [photoFailed, setPhotoFailed] = useState(false);
  return (
    <div className="flex items-center gap-3 rounded-xl bg-slate-950/60 p-3">
      {worker.photoUrl && !photoFailed ? (
        <img src={worker.photoUrl} alt="" onError={() => setPhotoFailed(true)} className="size-12 shrink-0 rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-blue-700 text-lg font-bold text-white">
          {initialsOf(worker.name)}
        </span>
      )}
      <div className="min-w-0">
        <p className="text-sm text-slate-300">Your professional</p>
        <p className="font-semibold text-white">{worker.name}</p>
        <a
          href={`tel:${worker.phone.replace(/[^+0-9]/g, '')}`}
          className="inline-flex items-center gap-1 text-sm font-medium text-amber-300 underline-offset-4 hover:underline"
        >
          <Phone aria-hidden="true" className="size-4" />
          {worker.phone}
        </a>
      </div>
    </div>
  );
}
