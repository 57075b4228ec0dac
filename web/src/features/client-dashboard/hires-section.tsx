import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ClipboardList } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { useLiveRequestUpdates } from '../../components/live-updates/use-live-request-updates';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { useLivePollInterval } from '../../lib/realtime';
import { HIRES_POLL_MS, hiresPollInterval } from './hires';

const HireCard = lazy(() => import('./hire-card'));

/** GET /api/requests: the customer's own requests and hires, by the customer cookie. */
export const hiresKey = '/api/requests';

/** The hires, with their live updates: toasts and an immediate refetch per event, 30 s polling while they flow. */
export function useHires(): UseQueryResult<ServiceRequestView[]> {
  const livePoll = useLivePollInterval(HIRES_POLL_MS);
  const hires = useQuery<ServiceRequestView[]>({
    queryKey: [hiresKey],
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
    </section>
  );
}

function HiresBody({ hires }: { hires: UseQueryResult<ServiceRequestView[]> }) {
  if (hires.isPending) {
    return (
      <div aria-busy="true" className="grid gap-3">
        <p role="status" className="sr-only">
          Loading your hires...
        </p>
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (hires.isError && !hires.data) {
    return (
      <Card role="alert" className="flex flex-wrap items-center justify-between gap-3 border-red-400/40">
        <p className="font-medium text-red-200">We couldn't load your hires.</p>
        <Button variant="outline" size="sm" onClick={() => void hires.refetch()} disabled={hires.isFetching}>
          {hires.isFetching ? 'Retrying...' : 'Retry'}
        </Button>
      </Card>
    );
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
