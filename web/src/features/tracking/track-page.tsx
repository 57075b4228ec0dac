import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '../../components/layout/page-header';
import { Skeleton } from '../../components/ui/skeleton';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { trackedBookingId } from './booking-query';
import { TrackedJob } from './tracked-job';

// The forms that find a booking show only without an id in the address: a tracking link never needs them.
const FindBooking = lazy(() => import('./find-booking'));

export default function TrackPage() {
  const { search } = useLocation();
  const id = trackedBookingId(search);
  useDocumentTitle('Track a Booking');
  // The prerendered page is made without a query string: the booking or the form comes once hydrated.
  const hydrated = useHydrated();
  const waiting = <Skeleton className="mx-auto h-48 max-w-lg" />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <PageHeader title="Track Your Booking" subtitle="Follow your request from booking to completion." />
      {!hydrated ? (
        waiting
      ) : id ? (
        <TrackedJob key={id} id={id} />
      ) : (
        <Suspense fallback={waiting}>
          <FindBooking />
        </Suspense>
      )}
    </div>
  );
}

