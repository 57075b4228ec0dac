import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate } from '../../lib/money';
import { label } from './format';
import { LoadError, Loading } from '../../components/ui/load-state';
import { Empty } from './empty';
import { pollMs, type AdminJob } from './types';
import { queryKeys } from '../../lib/query-keys';

export function JobsTab() {
  const jobs = useQuery<AdminJob[]>({ queryKey: queryKeys.jobs, refetchInterval: pollMs.jobs });

  if (jobs.isPending) return <Loading label="Loading jobs…" />;
  if (jobs.isError) return <LoadError message="Failed to fetch jobs" onRetry={() => void jobs.refetch()} retrying={jobs.isFetching} />;
  if (jobs.data.length === 0) {
    return <Empty title="No jobs yet">Jobs appear here as soon as customers book and workers accept them.</Empty>;
  }
  return (
    <section aria-labelledby="jobs-heading">
      <h2 id="jobs-heading" className="mb-4 text-xl font-bold text-white">
        All jobs <span className="text-base font-medium text-slate-300">({jobs.data.length})</span>
      </h2>
      <Card className="overflow-x-auto p-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300" role="region" aria-label="All jobs" tabIndex={0}>
        <table className="w-full min-w-[44rem] text-left text-sm">
          <caption className="sr-only">All jobs, newest first as the server sends them</caption>
          <thead className="border-b border-white/10 text-slate-300">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">Job</th>
              <th scope="col" className="px-4 py-3 font-semibold">Customer</th>
              <th scope="col" className="px-4 py-3 font-semibold">Address</th>
              <th scope="col" className="px-4 py-3 font-semibold">Rate</th>
              <th scope="col" className="px-4 py-3 font-semibold">State</th>
              <th scope="col" className="px-4 py-3 font-semibold">Created</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((job) => (
              <tr key={job.id} className="border-b border-white/5 last:border-0">
                <th scope="row" className="px-4 py-3 font-semibold text-white">
                  {job.category ? label(job.category) : '—'}
                  <span className="block font-mono text-xs font-normal text-slate-400">#{job.id.slice(-8)}</span>
                </th>
                <td className="px-4 py-3">{job.customerName ?? '—'}</td>
                <td className="px-4 py-3">{job.address ?? '—'}</td>
                <td className="px-4 py-3">{typeof job.hourlyRate === 'number' ? formatHourlyRate(job.hourlyRate) : '—'}</td>
                <td className="px-4 py-3">
                  <Badge tone="blue">{label(job.state)}</Badge>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(job.createdAt) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
