import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Hourglass, LogOut, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { categories } from '../../../../shared/categories';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { PageHeader } from '../../components/layout/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadError, Loading } from '../../components/ui/load-state';
import { formatDateTime } from '../../lib/date-time';
import { queryKeys } from '../../lib/query-keys';
import { useRealtimeEvent } from '../../lib/realtime';
import { workerGet } from './worker-api';

const tradeName = (slug: string) => categories.find((c) => c.slug === slug)?.name ?? slug;

/**
 * What an applicant's account shows until the owner decides, and after a rejection: their
 * application's summary (name, trades, when it was submitted, its status) and, once rejected, the
 * owner's notes. The owner's decision arrives live (`worker:status` on the worker's own channel):
 * the worker is fetched again at once, and an approval turns this screen into the dashboard.
 */
export function ApplicationReview({ worker, onLogout }: { worker: WorkerSelf; onLogout: () => void }) {
  const queryClient = useQueryClient();
  const application = useQuery({
    queryKey: queryKeys.workerApplication,
    queryFn: ({ signal }) => workerGet(queryKeys.workerApplication, signal),
    staleTime: 0,
  });
  // workerMe's key is a prefix of the application's: one invalidation refreshes both.
  useRealtimeEvent('worker:status', (data) => {
    if (data.workerId === worker.id) void queryClient.invalidateQueries({ queryKey: queryKeys.workerMe });
  });

  const rejected = worker.status === 'rejected';
  const summary = application.data;
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <Card className="text-center">
        <PageHeader
          icon={
            rejected ? <XCircle aria-hidden="true" className="size-14 text-red-400" /> : <Hourglass aria-hidden="true" className="size-14 text-amber-300" />
          }
          title={rejected ? 'Not approved' : 'Application Under Review'}
        />
        <div className="text-slate-200">
          {rejected ? (
            <p>Thanks for applying, {worker.fullName}. The owner did not approve your application.</p>
          ) : (
            <p>
              Thanks, {worker.fullName}. Your application is being reviewed; this page turns into your dashboard the moment the owner
              approves it.
            </p>
          )}
        </div>
        {application.isPending ? (
          <Loading label="Loading your application…" />
        ) : application.isError ? (
          <LoadError className="mt-6" message="Failed to fetch your application" onRetry={() => void application.refetch()} retrying={application.isFetching} />
        ) : summary ? (
          <dl className="mt-6 grid gap-3 rounded-lg bg-white/5 p-4 text-left text-sm" aria-label="Your application">
            <Row term="Name">{summary.fullName}</Row>
            <Row term="Trades">{summary.categories.map(tradeName).join(', ')}</Row>
            <Row term="Submitted">{formatDateTime(summary.submittedAt) ?? '—'}</Row>
            <Row term="Status">
              <Badge tone={summary.status === 'rejected' ? 'red' : summary.status === 'approved' ? 'green' : 'yellow'} data-testid="application-status">
                {summary.status === 'rejected' ? 'Not approved' : summary.status === 'approved' ? 'Approved' : 'Under review'}
              </Badge>
            </Row>
            {summary.reviewedAt ? <Row term="Decided">{formatDateTime(summary.reviewedAt) ?? '—'}</Row> : null}
            {summary.reviewNotes ? (
              <Row term="The owner’s notes">
                <span className="whitespace-pre-line break-words" data-testid="review-notes">
                  {summary.reviewNotes}
                </span>
              </Row>
            ) : null}
          </dl>
        ) : null}
        <Button variant="outline" className="mt-6" onClick={onLogout}>
          <LogOut aria-hidden="true" className="size-4" /> Logout
        </Button>
      </Card>
    </div>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[9rem_minmax(0,1fr)]">
      <dt className="font-semibold text-slate-300">{term}</dt>
      <dd className="text-slate-100">{children}</dd>
    </div>
  );
}
