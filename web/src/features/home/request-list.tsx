import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { useLiveRequestUpdates } from '../../components/live-updates/use-live-request-updates';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { customerRequestsKey } from '../../lib/query-keys';
import { useLivePollInterval } from '../../lib/realtime';
import { REQUEST_POLL_MS } from './request-card';

const RequestCards = lazy(() => import('./request-cards'));

const loading = (
  <div className="grid gap-4">
    <p role="status" className="sr-only">
      Loading your requests...
    </p>
    <Skeleton className="h-36 w-full" />
  </div>
);

export function RequestList() {
  // Live events refetch at once; while they flow, the 5 s poll is only a 30 s fallback.
  const requests = useQuery<ServiceRequestView[]>({ queryKey: customerRequestsKey, refetchInterval: useLivePollInterval(REQUEST_POLL_MS) });
  useLiveRequestUpdates(requests.data);

  return (
    <section aria-labelledby="your-requests-title">
      <h2 id="your-requests-title" className="mb-4 text-2xl font-bold text-white">
        Your Requests
      </h2>
      {requests.isError ? (
        <div role="alert" className="mb-4 flex flex-wrap items-center gap-3 text-sm">
          <p className="font-medium text-red-200">Could not load your requests</p>
          <Button variant="outline" size="sm" onClick={() => void requests.refetch()}>
            Retry
          </Button>
        </div>
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
    </section>
  );
}
