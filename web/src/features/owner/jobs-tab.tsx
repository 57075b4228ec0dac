import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { categorySlugs } from '../../../../shared/categories';
import { jobStateFilters, type JobAdminRow, type JobStateFilter } from '../../../../shared/schemas/owner-jobs';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { inputClasses } from '../../components/ui/field';
import { LoadError, Loading } from '../../components/ui/load-state';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate, formatHours } from '../../lib/money';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { Empty } from './empty';
import { label } from './format';
import { attentionText, jobStateText, jobStateTone, moneyText } from './jobs-format';
import { pollMs } from './types';
import { LoadMore } from '../../components/ui/load-more';
import { byCursor, itemsOf } from '../../lib/pages';

/**
 * The owner's jobs: what needs them first (a search that ended with no pro, a search going on too
 * long, a pro past their arrival deadline, a failed payment), then every job, newest first, a page
 * at a time with filters. Both refresh on focus, on an owner notification and every minute, never
 * the whole history: only the pages on screen are read again.
 */
export function JobsTab() {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-10">
      <AttentionSection />
      <JobsTable />
    </div>
  );
}


function AttentionSection() {
  const attention = useInfiniteQuery({
    queryKey: queryKeys.jobsNeedingAttention,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/jobs/attention', { query: { cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.jobs,
  });
  const jobs = itemsOf(attention.data);
  return (
    <section aria-labelledby="attention-heading">
      <h2 id="attention-heading" className="mb-4 text-xl font-bold text-white">
        Needs attention
      </h2>
      {attention.isPending ? (
        <Loading label="Loading jobs that need attention…" />
      ) : attention.isError ? (
        <LoadError message="Failed to fetch the jobs that need attention" onRetry={() => void attention.refetch()} retrying={attention.isFetching} />
      ) : jobs.length === 0 && !attention.hasNextPage ? (
        <Empty title="Nothing needs you now">Jobs with no pro, slow searches, late pros and failed payments appear here.</Empty>
      ) : (
        <>
          <ul className="grid gap-3" aria-label="Jobs that need attention">
            {jobs.map((job) => (
              <li key={job.id}>
                <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
                  <div className="min-w-0">
                    <Link to={paths.adminJob(job.id)} className="font-semibold text-white underline-offset-2 hover:underline">
                      {label(job.category)} · #{job.number}
                    </Link>
                    <p className="text-sm text-slate-300">
                      {job.customerName} · {job.address}
                    </p>
                    <p className="text-xs text-slate-400">Created {formatDateTime(job.createdAt) ?? '—'}</p>
                  </div>
                  {job.attention ? <Badge tone="red">{attentionText[job.attention]}</Badge> : null}
                </Card>
              </li>
            ))}
          </ul>
          <LoadMore list={attention} label="Load more jobs that need attention" />
        </>
      )}
    </section>
  );
}

interface Filters {
  state?: JobStateFilter;
  category?: string;
  from?: string;
  to?: string;
  workerId?: string;
  customer?: string;
  search?: string;
}

const stateOptionText = (state: JobStateFilter) => (state === 'no_pro' ? 'No pro found' : label(state));

function JobsTable() {
  const [filters, setFilters] = useState<Filters>({});
  const [workerName, setWorkerName] = useState<string | null>(null);
  const jobs = useInfiniteQuery({
    queryKey: queryKeys.jobTable(filters),
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/jobs/all', { query: { ...filters, cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.jobs,
  });
  const rows = itemsOf(jobs.data);
  const onlyPro = (job: JobAdminRow) => {
    if (!job.assignedPro) return;
    setWorkerName(job.assignedPro.name ?? 'this pro');
    setFilters((f) => ({ ...f, workerId: job.assignedPro!.id }));
  };

  return (
    <section aria-labelledby="jobs-heading">
      <h2 id="jobs-heading" className="mb-4 text-xl font-bold text-white">
        All jobs
      </h2>
      <JobFilters
        key={JSON.stringify(filters)}
        filters={filters}
        onApply={(next) => setFilters((f) => ({ ...next, workerId: f.workerId }))}
      />
      {filters.workerId ? (
        <p className="mb-3 flex items-center gap-3 text-sm text-slate-200">
          Only jobs of {workerName ?? 'one pro'}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setWorkerName(null);
              setFilters(({ workerId: _drop, ...rest }) => rest);
            }}
          >
            Show every pro&apos;s jobs
          </Button>
        </p>
      ) : null}
      {jobs.isPending ? (
        <Loading label="Loading jobs…" />
      ) : jobs.isError ? (
        <LoadError message="Failed to fetch jobs" onRetry={() => void jobs.refetch()} retrying={jobs.isFetching} />
      ) : rows.length === 0 && !jobs.hasNextPage ? (
        Object.keys(filters).length ? (
          <Empty title="No jobs found">No job matches these filters.</Empty>
        ) : (
          <Empty title="No jobs yet">Jobs appear here as soon as customers book.</Empty>
        )
      ) : (
        <>
          <Card className="overflow-x-auto p-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300" role="region" aria-label="All jobs" tabIndex={0}>
            <table className="w-full min-w-[64rem] text-left text-sm">
              <caption className="sr-only">Jobs, newest first</caption>
              <thead className="border-b border-white/10 text-slate-300">
                <tr>
                  {['Job', 'Customer', 'Address', 'Pro', 'Rate', 'State', 'Times', 'Hours', 'Invoice', 'Created'].map((h) => (
                    <th key={h} scope="col" className="px-3 py-3 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((job) => (
                  <JobRow key={job.id} job={job} onOnlyPro={onlyPro} />
                ))}
              </tbody>
            </table>
          </Card>
          {jobs.hasNextPage && rows.length === 0 ? <p className="mt-3 text-sm text-slate-300">No match in the jobs read so far; load more to look further back.</p> : null}
          <LoadMore list={jobs} label="Load more jobs" />
        </>
      )}
    </section>
  );
}

function JobRow({ job, onOnlyPro }: { job: JobAdminRow; onOnlyPro: (job: JobAdminRow) => void }) {
  const times = [
    ['Accepted', job.acceptedAt],
    ['Arrived', job.arrivedAt],
    ['Started', job.startedAt],
    ['Ended', job.endedAt],
  ].filter((t): t is [string, string] => typeof t[1] === 'string');
  return (
    <tr className="border-b border-white/5 align-top last:border-0">
      <th scope="row" className="px-3 py-3 font-semibold text-white">
        <Link to={paths.adminJob(job.id)} className="underline-offset-2 hover:underline">
          {label(job.category)}
        </Link>
        <span className="block font-mono text-xs font-normal text-slate-400">#{job.number}</span>
      </th>
      <td className="px-3 py-3">{job.customerName}</td>
      <td className="px-3 py-3">{job.address}</td>
      <td className="px-3 py-3">
        {job.assignedPro ? (
          <button type="button" className="text-left underline-offset-2 hover:underline" title="Only this pro's jobs" onClick={() => onOnlyPro(job)}>
            {job.assignedPro.name ?? 'Unknown pro'}
          </button>
        ) : (
          <span className="text-slate-400">{job.offersMade ? `${job.offersMade} offered` : '—'}</span>
        )}
      </td>
      <td className="px-3 py-3 whitespace-nowrap">{job.hourlyRate !== null ? formatHourlyRate(job.hourlyRate) : '—'}</td>
      <td className="px-3 py-3">
        <Badge tone={jobStateTone(job)}>{jobStateText(job)}</Badge>
        {/* "No pro found" is the state itself; the other reasons are said under it. */}
        {job.attention && job.attention !== 'no_pro' ? <span className="mt-1 block text-xs text-red-300">{attentionText[job.attention]}</span> : null}
      </td>
      <td className="px-3 py-3 text-xs whitespace-nowrap text-slate-300">
        {times.length ? times.map(([name, at]) => <span key={name} className="block">{`${name} ${formatDateTime(at, 'time') ?? ''}`}</span>) : '—'}
      </td>
      <td className="px-3 py-3">{job.totalHours !== null ? formatHours(job.totalHours) : '—'}</td>
      <td className="px-3 py-3 text-xs">{moneyText(job)}</td>
      <td className="px-3 py-3 whitespace-nowrap">{formatDateTime(job.createdAt) ?? '—'}</td>
    </tr>
  );
}

/** The table's filters as form controls, applied together (one request per Apply, not per keystroke). */
function JobFilters({ filters, onApply }: { filters: Filters; onApply: (filters: Filters) => void }) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(data.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    onApply({
      state: text('state') as JobStateFilter | undefined,
      category: text('category'),
      from: text('from'),
      to: text('to'),
      customer: text('customer'),
      search: text('search'),
    });
  };
  const control = `${inputClasses} py-2 text-sm`;
  const field = (name: string, text: string, input: ReactElement) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="mb-1 block text-xs font-semibold text-slate-200">
        {text}
      </label>
      {input}
    </div>
  );
  return (
    <form onSubmit={submit} aria-label="Filter jobs" className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-7">
      {field(
        'state',
        'State',
        <select id={`${id}-state`} name="state" defaultValue={filters.state ?? ''} className={control}>
          <option value="">Any state</option>
          {jobStateFilters.map((state) => (
            <option key={state} value={state}>
              {stateOptionText(state)}
            </option>
          ))}
        </select>,
      )}
      {field(
        'category',
        'Trade',
        <select id={`${id}-category`} name="category" defaultValue={filters.category ?? ''} className={control}>
          <option value="">Any trade</option>
          {categorySlugs.map((slug) => (
            <option key={slug} value={slug}>
              {label(slug)}
            </option>
          ))}
        </select>,
      )}
      {field('from', 'Created from', <input id={`${id}-from`} name="from" type="date" defaultValue={filters.from ?? ''} className={control} />)}
      {field('to', 'Created to', <input id={`${id}-to`} name="to" type="date" defaultValue={filters.to ?? ''} className={control} />)}
      {field('customer', 'Customer', <input id={`${id}-customer`} name="customer" type="search" maxLength={100} placeholder="Name, phone or email" defaultValue={filters.customer ?? ''} className={control} />)}
      {field('search', 'Job', <input id={`${id}-search`} name="search" type="search" maxLength={100} placeholder="Number, address or text" defaultValue={filters.search ?? ''} className={control} />)}
      <div className="flex items-end gap-2">
        <Button type="submit" size="sm">
          Apply
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => onApply({})}>
          Clear
        </Button>
      </div>
    </form>
  );
}
