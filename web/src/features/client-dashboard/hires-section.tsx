import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ClipboardList } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { useLiveRequestUpdates } from '../../domain/jobs/use-live-request-updates';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { useLivePollInterval } from '../../lib/realtime';
import { HIRES_POLL_MS, hiresPollInterval } from './hires';
import { LoadError, Loading } from '../../components/ui/load-state';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';

const HireCard = lazy(() => import('./hire-card'));

/** The hires, with their live updates: toasts and an immediate refetch per event, 30 s polling while they flow. */
export function useHires(): UseQueryResult<ServiceRequestView[]> {
  const livePoll = useLivePollInterval(HIRES_POLL_MS);
  const hires = useQuery<ServiceRequestView[]>({
    // The customer's own requests: hires are requests, so the home page's list and this are one query.
    queryKey: queryKeys.customerRequests,
    refetchInterval: (query) => (hiresPollInterval(query.state.data) === false ? false : livePoll),
  });
  useLiveRequestUpdates(hires.data);
  return hires;
}

export function HiresSection({ hires }: { hires: UseQueryResult<ServiceRequestView[]> }) {
  return (
    <section aria-labelledby="client-hires-heading" className="grid gap-4">
      <h2 id="client-hires-heading" className="flex items-center gap-2 text-2xl font-bold text-white">
        <ClipboardList aria-hidden="true" className="size-6 text-amber-300" /> Your hires
      </h2>
      <HiresBody hires={hires} />
      <p className="text-sm text-slate-300">
        Hired on another device, or cleared this browser?{' '}
        <Link to={paths.findRequests} className="font-semibold text-amber-300 underline">
          Find my requests
        </Link>
      </p>
    </section>
  );
}

function HiresBody({ hires }: { hires: UseQueryResult<ServiceRequestView[]> }) {
  if (hires.isPending) {
    return <Loading label="Loading your hires..." rows={1} />;
  }
  if (hires.isError && !hires.data) {
    return <LoadError message="We couldn't load your hires." onRetry={() => void hires.refetch()} retrying={hires.isFetching} />;
  }
  const list = hires.data ?? [];
  if (list.length === 0) {
    return (
      <Card className="text-slate-200">
        <p>No hires yet. Press Hire Now on a professional and your request shows here, with its progress.</p>
      </Card>
    );
  }
  return (
    <Suspense fallback={<Skeleton className="h-24 w-full" />}>
      <ul className="grid gap-4 md:grid-cols-2">
        {list.map((request) => (
          <li key={request.id}>
            <HireCard request={request} />
          </li>
        ))}
      </ul>
    </Suspense>
  );
}
