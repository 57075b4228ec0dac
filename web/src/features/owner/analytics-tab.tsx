import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';
import { label } from './format';
import { LoadError, Loading } from '../../components/ui/load-state';
import { type Analytics } from './types';
import { queryKeys } from '../../lib/query-keys';

export function AnalyticsTab() {
  const analytics = useQuery<Analytics>({ queryKey: queryKeys.analytics, refetchOnMount: 'always' });

  if (analytics.isPending) return <Loading label="Loading analytics…" />;
  if (analytics.isError) return <LoadError message="Failed to fetch analytics" onRetry={() => void analytics.refetch()} retrying={analytics.isFetching} />;
  const data = analytics.data;
  const jobStates = Object.entries(data.jobs.byState).filter(([, count]) => count > 0);

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Group title="Worker applications">
        <Stat name="Pending" value={data.applications.pending} />
        <Stat name="Approved" value={data.applications.approved} />
        <Stat name="Rejected" value={data.applications.rejected} />
      </Group>
      <Group title="Company applications">
        <Stat name="Pending" value={data.companyApplications.pending} />
        <Stat name="Approved" value={data.companyApplications.approved} />
        <Stat name="Rejected" value={data.companyApplications.rejected} />
      </Group>
      <Group title="Workers">
        <Stat name="Active" value={data.workers.active} />
        <Stat name="Available now" value={data.workers.available} />
        <Stat name="Pending review" value={data.workers.pendingReview} />
        <Stat name="Terminated" value={data.workers.terminated} />
      </Group>
      <Group title="Jobs">
        <Stat name="Total" value={data.jobs.total} />
        {jobStates.map(([state, count]) => (
          <Stat key={state} name={label(state)} value={count} />
        ))}
      </Group>
      <Group title="Customer ratings">
        <Stat
          name="Average rating"
          value={data.averageRating === null ? 'No reviews yet' : `${data.averageRating.toFixed(1)} / 5`}
        />
        <Stat name="Reviews" value={data.reviewCount} />
      </Group>
    </div>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  const id = `analytics-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card role="group" aria-labelledby={id}>
      <h2 id={id} className="mb-4 text-lg font-bold text-white">
        {title}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">{children}</dl>
    </Card>
  );
}

function Stat({ name, value }: { name: string; value: number | string }) {
  return (
    <div className="rounded-lg bg-slate-800/80 p-3">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-300">{name}</dt>
      <dd className={typeof value === 'number' ? 'mt-1 text-2xl font-bold text-white' : 'mt-1 text-sm font-semibold text-white'}>
        {value}
      </dd>
    </div>
  );
}
