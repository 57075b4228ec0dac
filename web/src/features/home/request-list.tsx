import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { useLiveRequestUpdates } from '../../domain/jobs/use-live-request-updates';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { useLivePollInterval } from '../../lib/realtime';
import { REQUEST_POLL_MS } from './request-card';
import { LoadError, Loading } from '../../components/ui/load-state';

const RequestCards = lazy(() => import('./request-cards'));

const loading = <Loading label="Loading your requests..." rows={1} rowClassName="h-36 w-full" />;

export function RequestList() {
  // Live events refetch at once; while they flow, the 5 s poll is only a 30 s fallback.
  const requests = useQuery<ServiceRequestView[]>({ queryKey: queryKeys.customerRequests, refetchInterval: useLivePollInterval(REQUEST_POLL_MS) });
  useLiveRequestUpdates(requests.data);

  return (
    <section aria-labelledby="your-requests-title">
      <h2 id="your-requests-title" className="mb-4 text-2xl font-bold text-white">
        Your Requests
      </h2>
      {requests.isError ? (
        <LoadError className="mb-4" message="Could not load your requests" onRetry={() => void requests.refetch()} />
      ) : null}
      {requests.isPending ? (
        loading
      ) : requests.data?.length ? (
        <Suspense fallback={loading}>
          <RequestCards requests={requests.data} />
        </Suspense>
      ) : requests.isSuccess ? (
        <p className="text-slate-200">No requests yet. Requests you send from this browser show here.</p>
      ) : null}
      <p className="mt-4 text-sm text-slate-300">
        Made a request on another device, or cleared this browser?{' '}
        <Link to={paths.findRequests} className="font-semibold text-amber-300 underline">
          Find my requests
        </Link>
      </p>
    </section>
  );
}
