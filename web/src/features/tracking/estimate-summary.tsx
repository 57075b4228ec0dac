import type { TrackedRequestView } from '../../../../shared/schemas/job';
import { estimateLines } from '../../domain/estimate/estimate';
import { formatDateTime } from '../../lib/date-time';
import { formatMoney } from '../../lib/money';

/**
 * The time the customer asked for and the price computed when they sent the job; once invoiced,
 * the amount billed beside it. A requested time is when the job starts; its offers to pros open a
 * day before it (the headline says so while they wait).
 */
export function EstimateSummary({ view }: { view: Pick<TrackedRequestView, 'requestedTime' | 'estimate' | 'invoice'> }) {
  if (!view.requestedTime && !view.estimate) return null;
  return (
    <section className="mt-6 rounded-md border border-slate-600 p-4 text-sm" aria-label="Requested time and estimate" data-testid="tracked-estimate">
      <p data-testid="tracked-requested-time">
        {view.requestedTime ? `Requested for ${formatDateTime(view.requestedTime)}` : 'Requested as soon as possible'}
      </p>
      {view.estimate ? (
        <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
          {estimateLines(view.estimate, null).map((line) => (
            <div key={line.label} className="contents">
              <dt>{line.label}</dt>
              <dd className="text-right">{line.amount}</dd>
            </div>
          ))}
          {view.invoice ? (
            <div className="contents font-semibold">
              <dt>Invoiced (actual)</dt>
              <dd className="text-right">{formatMoney(view.invoice.totalAmount)}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}
