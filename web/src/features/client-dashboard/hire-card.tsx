import { MapPinned, Phone, Star } from 'lucide-react';
import { Link } from 'react-router';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import type { RequestStatus } from '../../../../shared/domain/requests';
import { SUBMIT_VERIFICATION_FAILED } from '../../domain/invoices/invoice-rules';
import { RequestInvoiceActions } from '../../domain/invoices/request-invoice-actions';
import { JobTracking } from '../../domain/location/job-tracking';
import { pointOf } from '../../domain/location/tracking';
import { ReviewPrompt } from '../../domain/reviews/review-prompt';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { DispatchActions } from '../../domain/jobs/dispatch-actions';
import { useNow } from '../../lib/use-now';
import { proRatingText, reofferNote } from '../../domain/jobs/job-timeline';
import { hireProgress, statusTone } from './hires';
import { formatDateTime } from '../../lib/date-time';

/**
 * One hire's card: its progress, the live tracking, the invoice and review actions. Its own chunk
 * (hires-section.tsx loads it once there are hires to show), so a customer's dashboard opens
 * without the invoice, tracking and review code until a hire needs it.
 */
const toneClasses = {
  amber: 'bg-amber-100 text-amber-900 ring-amber-300',
  blue: 'bg-blue-100 text-blue-900 ring-blue-300',
  green: 'bg-green-100 text-green-900 ring-green-300',
} as const;

function StatusBadge({ status, cancelled }: { status: RequestStatus; cancelled: boolean }) {
  return (
    <span
      data-testid="hire-status"
      data-status={status}
      className={cn(
        'inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset',
        cancelled ? 'bg-red-100 text-red-900 ring-red-300' : toneClasses[statusTone[status]],
      )}
    >
      {cancelled ? 'Cancelled' : status}
    </span>
  );
}

export default function HireCard({ request }: { request: ServiceRequestView }) {
  const { number } = request;
  const created = formatDateTime(request.createdAt);
  const now = useNow(request.reofferUntil ? 30_000 : null);
  const reoffer = request.canRetry ? reofferNote(request.reofferUntil, now) : null;
  return (
    <Card className="grid gap-3 p-5">
      <article aria-label={`Request ${number}`} className="grid gap-3" data-testid="hire-card" data-request-id={request.id}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-400">Request</p>
            <h3 className="font-mono text-lg font-bold tracking-wider text-white">{number}</h3>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <StatusBadge status={request.status} cancelled={request.jobState === 'cancelled'} />
            <Link to={paths.track(request.id)} className="inline-flex items-center gap-1 text-sm font-semibold text-amber-300 underline underline-offset-4">
              <MapPinned aria-hidden="true" className="size-4" />
              Track<span className="sr-only"> request {number}</span>
            </Link>
          </div>
        </div>
        <p className="text-sm text-slate-200">
          <span className="font-semibold text-white">{request.service}</span>
          {created ? <span className="text-slate-400"> · {created}</span> : null}
        </p>
        {request.worker ? (
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-200">
            <span>
              Professional: <span className="font-semibold text-white">{request.worker.name}</span>
            </span>
            <span className="inline-flex items-center gap-1">
              <Star aria-hidden="true" className="size-3.5 fill-amber-400 text-amber-400" />
              <span className="sr-only">Rating: </span>
              {proRatingText(request.worker)}
            </span>
            {request.worker.phone ? (
              <a href={`tel:${request.worker.phone}`} className="inline-flex items-center gap-1 text-amber-300 underline-offset-2 hover:underline">
                <Phone aria-hidden="true" className="size-3.5" /> {request.worker.phone}
              </a>
            ) : null}
          </p>
        ) : null}
        {/* Polled every 5 s: the status and its lines are read out when they change. */}
        <div aria-live="polite" aria-atomic="true" className="grid gap-1 text-sm">
          <span className="sr-only">Status: {request.jobState === 'cancelled' ? 'Cancelled' : request.status}.</span>
          {hireProgress(request).map((line) => (
            <p
              key={line}
              className={cn(line === 'No worker available' ? 'font-semibold text-orange-200' : 'text-slate-200')}
            >
              {line}
            </p>
          ))}
        </div>
        {/* Outside the live region: the minutes left change on their own, and the buttons keep their focus while a poll moves the card on. */}
        {reoffer ? <p className="text-sm text-slate-200">{reoffer}</p> : null}
        <DispatchActions request={request} />
        {/* Outside the polled live region: the tracking announces its own lines, and the map is not news. */}
        {request.status === 'In Progress' ? (
          <JobTracking
            jobId={request.id}
            jobState={request.jobState}
            etaMinutes={request.etaMinutes}
            customer={pointOf(request.clientLatitude, request.clientLongitude)}
          />
        ) : null}
        <RequestInvoiceActions request={request} verificationFailureText={SUBMIT_VERIFICATION_FAILED} />
        <ReviewPrompt request={request} />
      </article>
    </Card>
  );
}
