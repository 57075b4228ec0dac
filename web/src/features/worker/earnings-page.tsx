import { ArrowLeft, Banknote, CalendarDays, ClipboardCheck, Info, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { PageHeader } from '../../components/layout/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage } from '../../lib/api';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { summarizeEarnings } from './earnings-summary';
import { formatHours, serviceLabel } from './job-display';
import { useCompletedJobs, usePublicConfig } from './jobs-api';
import { LoadProblem } from './load-problem';
import { useWorkerSession } from './session';
import { formatDollars } from './worker-api';

export default function WorkerEarningsPage() {
  useDocumentTitle('Earnings');
  const session = useWorkerSession();
  const workerId = session.token && session.worker ? session.worker.id : '';
  const jobs = useCompletedJobs(workerId);

  if (!workerId) return <Navigate to={paths.workerLogin} replace />;

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
        <LoadProblem message="Failed to fetch completed jobs" detail={errorMessage(jobs.error)} onRetry={() => void jobs.refetch()} busy={jobs.isFetching} />
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
  } else {
    const summary = summarizeEarnings(jobs.data);
    body = (
      <>
        {backLink}
        <dl className="grid gap-4 sm:grid-cols-3">
          <Stat icon={<Wallet aria-hidden="true" className="size-5 text-amber-300" />} label="Total earnings" value={formatDollars(summary.totalCents)} />
          <Stat icon={<CalendarDays aria-hidden="true" className="size-5 text-amber-300" />} label="This week" value={formatDollars(summary.weekCents)} />
          <Stat icon={<ClipboardCheck aria-hidden="true" className="size-5 text-amber-300" />} label="Jobs completed" value={String(summary.jobsCompleted)} />
        </dl>
        <FeeLine />
        <PayoutBox />
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
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Completed jobs, newest first</caption>
              <thead className="border-b border-white/10 text-slate-300">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Date</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Service</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Customer</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Hours</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Amount</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Your share</th>
                </tr>
              </thead>
              <tbody>
                {summary.history.map((job) => (
                  <tr key={job.id} className="border-b border-white/5 last:border-0">
                    <td className="whitespace-nowrap px-4 py-3">{formatDate(job.endedAt)}</td>
                    <th scope="row" className="px-4 py-3 font-semibold text-white">
                      {serviceLabel(job)}
                    </th>
                    <td className="px-4 py-3">{job.customerName}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatHours(job.totalHours)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatDollars(job.amount)}</td>
                    <td className="px-4 py-3 text-right font-semibold tabular-nums text-white">{formatDollars(job.workerShare)}</td>
                  </tr>
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

/** The one configured fee rate (DESIGN.md section 8), never a figure written here. */
function FeeLine() {
  const config = usePublicConfig();
  if (config.isPending) {
    return (
      <div className="mt-6">
        <span className="sr-only">Loading the platform fee...</span>
        <Skeleton className="h-4 w-64" />
      </div>
    );
  }
  if (config.isError) {
    return (
      <div className="mt-6">
        <LoadProblem message="We couldn’t load the current platform fee." onRetry={() => void config.refetch()} busy={config.isFetching} />
      </div>
    );
  }
  return (
    <p className="mt-6 text-sm text-slate-200">
      Fixly keeps {config.data.platformFeePercent}%; you keep {config.data.workerSharePercent}%. Each job’s amount is its billed hours
      times your hourly rate; your share is what remains after the fee.
    </p>
  );
}

function PayoutBox() {
  return (
    <Card className="mt-6 border-amber-300/30">
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <Info aria-hidden="true" className="size-5 text-amber-300" /> Payout information
      </h2>
      <p className="mt-3 text-slate-200">
        Payouts go to your Stripe connected account daily after job completion and take 1-2 business days to arrive.
      </p>
      <p className="mt-2 text-slate-200">Setting up payouts arrives with card payments; until then, earnings are held for you.</p>
    </Card>
  );
}

function EarningsLoading() {
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        Loading your earnings...
      </p>
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
    </div>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date);
}
