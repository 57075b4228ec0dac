import { ArrowLeft, Banknote, CalendarDays, ClipboardCheck, Info, Wallet } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { CompletedJobView } from '../../../../shared/schemas/job';
import { PageHeader } from '../../components/layout/page-header';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast-store';
import { errorMessage } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { paymentStateOf, payoutLabelOf, summarizeEarnings } from './earnings-summary';
import { serviceLabel } from './job-display';
import { useCompletedJobs, usePublicConfig } from './jobs-api';
import { PayoutSetupButton } from './payout-setup';
import { heldText, payoutReturnOf, payoutReturnToast, payoutStatusLabel, withoutPayoutReturn, type PayoutSetupStatus } from './payouts';
import { usePayoutStatus } from './payouts-api';
import { useWorkerSession } from './session';
import { formatDateTime } from '../../lib/date-time';
import { formatHours, formatMoney } from '../../lib/money';
import { LoadError, Loading } from '../../components/ui/load-state';

export default function WorkerEarningsPage() {
  useDocumentTitle('Earnings');
  const session = useWorkerSession();
  const workerId = session.token && session.worker ? session.worker.id : '';
  const jobs = useCompletedJobs(workerId);
  const payouts = usePayoutStatus(Boolean(workerId));
  const linkExpired = usePayoutReturn(payouts, Boolean(workerId));

  if (!workerId) return <Navigate to={paths.workerLogin} replace />;

  const payoutBox = <PayoutBox payouts={payouts} linkExpired={linkExpired} />;

  const backLink = (
    <Link to={paths.workerDashboard} className={buttonClasses('outline', 'sm', 'mb-6')}>
      <ArrowLeft aria-hidden="true" className="size-4" /> Back to Dashboard
    </Link>
  );

  let body: ReactNode;
  if (jobs.isPending) {
    body = (
      <>
        {backLink}
        <EarningsLoading />
      </>
    );
  } else if (jobs.isError) {
    body = (
      <>
        {backLink}
        <LoadError className="mb-4" message="Failed to fetch completed jobs" detail={errorMessage(jobs.error)} onRetry={() => void jobs.refetch()} retrying={jobs.isFetching} />
      </>
    );
  } else if (jobs.data.length === 0) {
    body = (
      <Card className="text-center">
        <ClipboardCheck aria-hidden="true" className="mx-auto mb-4 size-12 text-amber-300" />
        <h2 className="text-2xl font-bold text-white">No Completed Jobs Yet</h2>
        <p className="mt-3 text-slate-200">Your earnings appear here once you complete your first job.</p>
        <Link to={paths.workerDashboard} className={buttonClasses('primary', 'md', 'mt-6')}>
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to Dashboard
        </Link>
      </Card>
    );
    // Payouts can be set up before the first job, and Stripe may send the worker back here.
    body = (
      <>
        {body}
        {payoutBox}
      </>
    );
  } else {
    const summary = summarizeEarnings(jobs.data);
    body = (
      <>
        {backLink}
        <dl className="grid gap-4 sm:grid-cols-3">
          <Stat icon={<Wallet aria-hidden="true" className="size-5 text-amber-300" />} label="Total earnings" value={formatMoney(summary.totalCents)} />
          <Stat icon={<CalendarDays aria-hidden="true" className="size-5 text-amber-300" />} label="This week" value={formatMoney(summary.weekCents)} />
          <Stat icon={<ClipboardCheck aria-hidden="true" className="size-5 text-amber-300" />} label="Jobs completed" value={String(summary.jobsCompleted)} />
        </dl>
        <p className="mt-4 text-sm text-slate-200">
          Paid by customers so far: <span className="font-semibold tabular-nums text-white">{formatMoney(summary.paidCents)}</span>
        </p>
        <FeeLine />
        {payoutBox}
        <section aria-labelledby="history-heading" className="mt-8">
          <h2 id="history-heading" className="mb-4 text-xl font-semibold text-white">
            Job history
          </h2>
          <Card
            className="overflow-x-auto p-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
            role="region"
            aria-label="Job history"
            tabIndex={0}
          >
            <table className="w-full min-w-[52rem] text-left text-sm">
              <caption className="sr-only">Completed jobs, newest first</caption>
              <thead className="border-b border-white/10 text-slate-300">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Date</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Service</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Customer</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Hours</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Amount</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Your share</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Payment</th>
                </tr>
              </thead>
              <tbody>
                {summary.history.map((job) => (
                  <HistoryRow key={job.id} job={job} />
                ))}
              </tbody>
            </table>
          </Card>
        </section>
      </>
    );
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <PageHeader
        icon={<Banknote aria-hidden="true" className="size-12 text-amber-300" />}
        title="Earnings"
        subtitle="What your completed jobs have earned you, after the platform fee."
      />
      {body}
    </div>
  );
}

function Stat({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <Card>
      <dt className="flex items-center gap-2 text-sm font-medium text-slate-300">
        {icon}
        {label}
      </dt>
      <dd className="mt-2 text-2xl font-bold tabular-nums text-white">{value}</dd>
    </Card>
  );
}

/** One finished job: its figures, then where its money stands (payment, and the payout once paid). */
function HistoryRow({ job }: { job: CompletedJobView }) {
  const payment = paymentStateOf(job);
  const payout = payoutLabelOf(job);
  return (
    <tr className="border-b border-white/5 last:border-0">
      <td className="whitespace-nowrap px-4 py-3">{formatDateTime(job.endedAt, 'date') ?? '—'}</td>
      <th scope="row" className="px-4 py-3 font-semibold text-white">
        <Link
          to={paths.workerJob(job.id)}
          className="rounded underline decoration-amber-300/60 underline-offset-4 hover:decoration-amber-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
        >
          {serviceLabel(job)}
        </Link>
      </th>
      <td className="px-4 py-3">{job.customerName}</td>
      <td className="px-4 py-3 text-right tabular-nums">{formatHours(job.totalHours)}</td>
      <td className="px-4 py-3 text-right tabular-nums">{formatMoney(job.amount)}</td>
      <td className="px-4 py-3 text-right font-semibold tabular-nums text-white">{formatMoney(job.workerShare)}</td>
      <td className="px-4 py-3">
        <Badge tone={payment.tone}>{payment.label}</Badge>
        {payout ? <span className="mt-1 block text-xs text-slate-300">Payout: {payout}</span> : null}
      </td>
    </tr>
  );
}

/** The fee rate from the public config, the one the server charges, never a figure written here. */
function FeeLine() {
  const config = usePublicConfig();
  if (config.isPending) {
    return (
      <Loading label="Loading the platform fee..." rows={1} rowClassName="h-4 w-64" className="mt-6" />
    );
  }
  if (config.isError) {
    return (
      <div className="mt-6">
        <LoadError className="mb-4" message="We couldn’t load the current platform fee." onRetry={() => void config.refetch()} retrying={config.isFetching} />
      </div>
    );
  }
  return (
    <p className="mt-6 text-sm text-slate-200">
      Fixly keeps {config.data.platformFeePercent}%; you keep {config.data.workerSharePercent}%. A job’s amount is its billable hours
      times your hourly rate until you invoice it, then the invoice’s total (hours times your rate plus materials); your share is what
      remains after the fee.
    </p>
  );
}

const payoutTones: Record<PayoutSetupStatus, BadgeTone> = { not_started: 'slate', pending: 'orange', enabled: 'green' };

/**
 * Stripe sends the worker back with ?payouts=return or ?payouts=refresh. Either way the parameter
 * is dropped (a reload must not repeat it). On return the status is read again and the toast says
 * whether payouts are on; on refresh the link had expired, which the payout box says.
 */
interface PayoutQuery {
  refetch: () => Promise<unknown>;
  data?: { status: PayoutSetupStatus };
  isFetching: boolean;
  dataUpdatedAt: number;
}

function usePayoutReturn(payouts: PayoutQuery, signedIn: boolean): boolean {
  const [searchParams, setSearchParams] = useSearchParams();
  const [linkExpired, setLinkExpired] = useState(false);
  // Strict mode runs the effect twice before the stripped address lands: answer each visit once.
  const handled = useRef<string | null>(null);
  // The status as of the return is announced from the first answer that arrives after it, not from
  // refetch()'s promise: strict mode's remount cancels that fetch, and its promise then holds no data.
  const announceAfter = useRef<number | null>(null);
  const kind = payoutReturnOf(searchParams);
  const { refetch, data, isFetching, dataUpdatedAt } = payouts;

  useEffect(() => {
    if (!kind || !signedIn) return;
    const visit = searchParams.toString();
    if (handled.current === visit) return;
    handled.current = visit;
    setSearchParams(withoutPayoutReturn(searchParams), { replace: true });
    if (kind === 'refresh') {
      setLinkExpired(true);
      return;
    }
    setLinkExpired(false);
    announceAfter.current = Date.now();
    void refetch();
  }, [kind, signedIn, searchParams, setSearchParams, refetch]);

  useEffect(() => {
    const since = announceAfter.current;
    if (since === null || isFetching || !data || dataUpdatedAt < since) return;
    announceAfter.current = null;
    toast(payoutReturnToast('return', data.status));
  }, [data, isFetching, dataUpdatedAt]);

  return linkExpired;
}

function PayoutBox({ payouts, linkExpired }: { payouts: ReturnType<typeof usePayoutStatus>; linkExpired: boolean }) {
  const data = payouts.data;
  const held = data ? heldText(formatMoney(data.heldCents), data.heldCount, data.status) : null;
  return (
    <Card className="mt-6 border-amber-300/30">
      <section aria-labelledby="payout-heading">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="payout-heading" className="flex items-center gap-2 text-lg font-semibold text-white">
            <Info aria-hidden="true" className="size-5 text-amber-300" /> Payout information
          </h2>
          {/* Polite, so coming back from Stripe reads out the new standing once. */}
          <p aria-live="polite" className="text-sm">
            {data ? (
              <>
                <span className="sr-only">Payout status: </span>
                <Badge tone={payoutTones[data.status]} data-testid="payout-status">
                  {payoutStatusLabel(data.status)}
                </Badge>
              </>
            ) : null}
          </p>
        </div>
        <p className="mt-3 text-slate-200">
          Payouts go to your Stripe connected account daily after job completion and take 1-2 business days to arrive.
        </p>

        {payouts.isPending ? (
          <Loading label="Loading your payout status..." rows={1} rowClassName="h-10 w-64" className="mt-4" />
        ) : payouts.isError && !data ? (
          <div className="mt-4">
            <LoadError className="mb-4" message="Failed to fetch payout status" detail={errorMessage(payouts.error)} onRetry={() => void payouts.refetch()} retrying={payouts.isFetching} />
          </div>
        ) : data ? (
          <>
            {data.status !== 'enabled' ? (
              <p className="mt-2 text-slate-200">
                {data.status === 'pending'
                  ? 'Stripe still needs a few details before it can send you money.'
                  : 'Connect a Stripe account so what customers pay reaches your bank. Until then, your share is held for you.'}
              </p>
            ) : null}
            {linkExpired && data.status !== 'enabled' ? (
              <p role="status" className="mt-3 rounded-lg bg-orange-950/70 p-3 text-sm font-medium text-orange-100">
                {payoutReturnToast('refresh', data.status).title}. {payoutReturnToast('refresh', data.status).description}
              </p>
            ) : null}
            {held ? <p className="mt-3 font-medium text-white">{held}</p> : null}
            {data.transferredCents > 0 ? (
              <p className="mt-2 text-sm text-slate-200">
                Transferred to your account so far: <span className="font-semibold tabular-nums text-white">{formatMoney(data.transferredCents)}</span>
              </p>
            ) : null}
            <div className="mt-4 empty:hidden">
              <PayoutSetupButton status={data.status} />
            </div>
          </>
        ) : null}
      </section>
    </Card>
  );
}

function EarningsLoading() {
  return (
    <Loading label="Loading your earnings...">
      <div className="grid gap-4 sm:grid-cols-3">
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
      </div>
      <div className="mt-8 grid gap-3">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    </Loading>
  );
}
