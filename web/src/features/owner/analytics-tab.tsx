import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, inputClasses } from '../../components/ui/field';
import { LoadError, Loading } from '../../components/ui/load-state';
import { api, errorMessage } from '../../lib/api';
import { endpointRequest, withQuery } from '../../lib/endpoint';
import { formatMoney } from '../../lib/money';
import { queryKeys } from '../../lib/query-keys';
import { label } from './format';
import { type Analytics } from './types';
import { byCursor, itemsOf } from '../../lib/pages';

// recharts loads with this tab's charts only (its own chunk), never with the dashboard.
const MoneyChart = lazy(() => import('./analytics-charts').then((m) => ({ default: m.MoneyChart })));
const BarsChart = lazy(() => import('./analytics-charts').then((m) => ({ default: m.BarsChart })));

type Grouping = Analytics['range']['by'];

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const money = (cents: number) => formatMoney(cents);

interface Range {
  from: string;
  to: string;
  by: Grouping;
}

export function AnalyticsTab() {
  const [range, setRange] = useState<Range>(() => ({ from: daysBefore(today(), 29), to: today(), by: 'day' }));
  const analytics = useQuery<Analytics>({ queryKey: queryKeys.analyticsRange(range), refetchOnMount: 'always' });

  return (
    <div className="grid gap-6">
      <RangeForm range={range} onApply={setRange} />
      {analytics.isPending ? (
        <Loading label="Loading analytics…" />
      ) : analytics.isError ? (
        <LoadError
          message="Failed to fetch analytics"
          detail={errorMessage(analytics.error)}
          onRetry={() => void analytics.refetch()}
          retrying={analytics.isFetching}
        />
      ) : (
        <Figures data={analytics.data} />
      )}
      <ProsTable />
      <ExportForm />
    </div>
  );
}

function RangeForm({ range, onApply }: { range: Range; onApply: (range: Range) => void }) {
  const [draft, setDraft] = useState(range);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <Card>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-4" aria-label="Analytics range">
        <Field id="analytics-from" label="From">
          <input type="date" className={inputClasses} value={draft.from} max={draft.to} required onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </Field>
        <Field id="analytics-to" label="To">
          <input type="date" className={inputClasses} value={draft.to} min={draft.from} required onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </Field>
        <Field id="analytics-by" label="Money by">
          <select className={inputClasses} value={draft.by} onChange={(e) => setDraft({ ...draft, by: e.target.value as Grouping })}>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </Field>
        <Button type="submit">Show</Button>
        <p className="w-full text-sm text-slate-300">Days are UTC, both included; at most 400 days at a time.</p>
      </form>
    </Card>
  );
}

function Figures({ data }: { data: Analytics }) {
  const { funnel, money: m } = data;
  const trades = byTrade(data.noPro);
  return (
    <>
      <Section title="Money" id="analytics-money">
        <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
          <Stat name="Gross bookings" value={money(m.totals.grossCents)} />
          <Stat name="Platform fees" value={money(m.totals.platformFeeCents)} />
          <Stat name="Pro payouts" value={money(m.totals.proPayoutCents)} />
          <Stat name="Held in range" value={money(m.totals.heldCents)} />
          <Stat name="Held now" value={money(m.heldNowCents)} />
        </dl>
        {m.totals.payments === 0 ? (
          <p className="text-slate-300">No payments from {data.range.from} to {data.range.to}.</p>
        ) : (
          <>
            <Suspense fallback={<Loading label="Loading chart…" rows={1} rowClassName="h-72 w-full" />}>
              <MoneyChart rows={m.periods} />
            </Suspense>
            <details className="mt-3 text-sm text-slate-200">
              <summary className="cursor-pointer font-semibold">Money by {data.range.by} as a table</summary>
              <table className="mt-2 w-full text-left">
                <thead className="text-slate-300">
                  <tr>
                    {['Period', 'Gross', 'Fees', 'Pro payouts', 'Held', 'Released', 'Payments'].map((h) => (
                      <th key={h} scope="col" className="px-2 py-1 font-semibold">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {m.periods
                    .filter((p) => p.payments > 0 || p.releasedCents > 0)
                    .map((p) => (
                      <tr key={p.period} className="border-t border-white/10">
                        <th scope="row" className="px-2 py-1 font-normal">
                          {p.period}
                        </th>
                        <td className="px-2 py-1">{money(p.grossCents)}</td>
                        <td className="px-2 py-1">{money(p.platformFeeCents)}</td>
                        <td className="px-2 py-1">{money(p.proPayoutCents)}</td>
                        <td className="px-2 py-1">{money(p.heldCents)}</td>
                        <td className="px-2 py-1">{money(p.releasedCents)}</td>
                        <td className="px-2 py-1">{p.payments}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </details>
          </>
        )}
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Funnel" id="analytics-funnel">
          {funnel.sent === 0 && funnel.paid === 0 ? (
            <p className="text-slate-300">No jobs were sent or paid in this range.</p>
          ) : (
            <Suspense fallback={<Loading label="Loading chart…" rows={1} />}>
              <BarsChart unit="count" rows={Object.entries(funnel).map(([step, value]) => ({ name: label(step), value }))} />
            </Suspense>
          )}
          <dl className="mt-3 grid grid-cols-3 gap-3 sm:grid-cols-6">
            {Object.entries(funnel).map(([step, value]) => (
              <Stat key={step} name={label(step)} value={value} />
            ))}
          </dl>
        </Section>
        <Section title="Service" id="analytics-service">
          <dl className="grid grid-cols-2 gap-3">
            <Stat
              name="Median time to accept"
              value={data.timeToAccept.medianMinutes === null ? 'No accepts in this range' : `${data.timeToAccept.medianMinutes} min (of ${data.timeToAccept.accepted})`}
            />
            <Stat
              name="Arrived on time"
              value={
                data.arrivals.onTimeRate === null
                  ? 'No arrivals in this range'
                  : `${percent(data.arrivals.onTimeRate)} (${data.arrivals.onTime} of ${data.arrivals.onTime + data.arrivals.late})`
              }
            />
          </dl>
        </Section>
      </div>

      <Section title="Jobs with no pro" id="analytics-no-pro">
        {data.noPro.every((row) => row.noPro === 0) ? (
          <p className="text-slate-300">{funnel.sent === 0 ? 'No jobs were sent in this range.' : 'Every job sent in this range found a pro.'}</p>
        ) : (
          <>
            <Suspense fallback={<Loading label="Loading chart…" rows={1} />}>
              <BarsChart unit="percent" rows={trades.map((t) => ({ name: label(t.category), value: t.share ?? 0 }))} />
            </Suspense>
            <table className="mt-3 w-full text-left text-sm text-slate-200">
              <caption className="sr-only">Jobs with no pro by trade and area, most first</caption>
              <thead className="text-slate-300">
                <tr>
                  {['Trade', 'Area', 'Sent', 'No pro', 'Share'].map((h) => (
                    <th key={h} scope="col" className="px-2 py-1 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.noPro
                  .filter((row) => row.noPro > 0)
                  .map((row) => (
                    <tr key={`${row.category}:${row.area}`} className="border-t border-white/10">
                      <td className="px-2 py-1">{label(row.category)}</td>
                      <td className="px-2 py-1 font-mono">{row.area === 'none' ? 'No location' : row.area}</td>
                      <td className="px-2 py-1">{row.sent}</td>
                      <td className="px-2 py-1">{row.noPro}</td>
                      <td className="px-2 py-1">{row.share === null ? '—' : percent(row.share)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
            <p className="mt-2 text-xs text-slate-400">An area is a geohash cell of about 40 × 20 km.</p>
          </>
        )}
      </Section>

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
          <Stat name="Pending review" value={data.workers.pendingReview} />
          <Stat name="Suspended" value={data.workers.suspended} />
          <Stat name="Terminated" value={data.workers.terminated} />
          <Stat name="On probation" value={data.workersOnProbation} />
        </Group>
        <Group title="Jobs">
          <Stat name="Total" value={data.jobs.total} />
          <Stat name="Sent in range" value={funnel.sent} />
          <Stat name="Paid in range" value={funnel.paid} />
        </Group>
        <Group title="Customer ratings">
          <Stat name="Average rating" value={data.averageRating === null ? 'No reviews yet' : `${data.averageRating.toFixed(1)} / 5`} />
          <Stat name="Reviews" value={data.reviewCount} />
        </Group>
      </div>
    </>
  );
}

/** The no-pro share of each trade over all its areas. */
function byTrade(rows: Analytics['noPro']) {
  const trades = new Map<string, { sent: number; noPro: number }>();
  for (const row of rows) {
    const t = trades.get(row.category) ?? { sent: 0, noPro: 0 };
    trades.set(row.category, { sent: t.sent + row.sent, noPro: t.noPro + row.noPro });
  }
  return [...trades]
    .map(([category, t]) => ({ category, share: t.sent === 0 ? null : t.noPro / t.sent }))
    .filter((t) => t.share !== null && t.share > 0)
    .sort((a, b) => (b.share ?? 0) - (a.share ?? 0));
}

function ProsTable() {
  const pros = useInfiniteQuery({
    queryKey: queryKeys.proFigures,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/analytics/pros', { query: { cursor: pageParam }, signal }),
    ...byCursor,
  });
  const rows = itemsOf(pros.data);
  return (
    <Section title="Pros" id="analytics-pros">
      {pros.isPending ? (
        <Loading label="Loading pros…" />
      ) : pros.isError ? (
        <LoadError message="Failed to fetch the pros' figures" onRetry={() => void pros.refetch()} retrying={pros.isFetching} />
      ) : rows.length === 0 ? (
        <p className="text-slate-300">No pros yet.</p>
      ) : (
        <>
          <div className="overflow-x-auto" role="region" aria-label="Pros' figures" tabIndex={0}>
            <table className="w-full min-w-[40rem] text-left text-sm text-slate-200">
              <caption className="sr-only">Each pro&apos;s rating, earnings and strikes (earnings: their shares of paid invoices, all time)</caption>
              <thead className="text-slate-300">
                <tr>
                  {['Pro', 'Status', 'Rating', 'Earned', 'Paid jobs', 'Strikes'].map((h) => (
                    <th key={h} scope="col" className="px-2 py-1 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((pro) => (
                  <tr key={pro.id} className="border-t border-white/10">
                    <th scope="row" className="px-2 py-1 font-normal">
                      {pro.fullName}
                    </th>
                    <td className="px-2 py-1">{label(pro.status)}</td>
                    <td className="px-2 py-1">{pro.averageRating === null ? 'No reviews' : `${pro.averageRating.toFixed(1)} (${pro.reviewCount})`}</td>
                    <td className="px-2 py-1">{money(pro.earnedCents)}</td>
                    <td className="px-2 py-1">{pro.paidJobs}</td>
                    <td className="px-2 py-1">{pro.strikes}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pros.hasNextPage ? (
            <Button variant="outline" className="mt-3" onClick={() => void pros.fetchNextPage()} disabled={pros.isFetchingNextPage}>
              {pros.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </Button>
          ) : null}
        </>
      )}
    </Section>
  );
}

function ExportForm() {
  const [from, setFrom] = useState(() => daysBefore(today(), 29));
  const [to, setTo] = useState(today);
  const valid = Boolean(from && to && from <= to);
  const link = (endpoint: 'GET /api/admin/exports/jobs' | 'GET /api/admin/exports/payments') => withQuery(endpointRequest(endpoint).path, { from, to });
  return (
    <Section title="Export as CSV" id="analytics-export">
      <div className="flex flex-wrap items-end gap-4">
        <Field id="export-from" label="From">
          <input type="date" className={inputClasses} value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field id="export-to" label="To">
          <input type="date" className={inputClasses} value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </Field>
        {valid ? (
          <>
            <a className={buttonClasses('outline', 'md')} href={link('GET /api/admin/exports/jobs')} download>
              Download jobs
            </a>
            <a className={buttonClasses('outline', 'md')} href={link('GET /api/admin/exports/payments')} download>
              Download payments
            </a>
          </>
        ) : (
          <p className="text-sm text-red-200">Choose a start on or before the end.</p>
        )}
      </div>
      <p className="mt-2 text-sm text-slate-300">Jobs by the day they were sent, payments by the day they were paid (UTC); up to 5,000 rows per file.</p>
    </Section>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card role="region" aria-labelledby={id}>
      <h2 id={id} className="mb-4 text-lg font-bold text-white">
        {title}
      </h2>
      {children}
    </Card>
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
      <dd className={typeof value === 'number' ? 'mt-1 text-2xl font-bold text-white' : 'mt-1 text-sm font-semibold text-white'}>{value}</dd>
    </div>
  );
}
