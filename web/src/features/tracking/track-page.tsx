import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '../../components/layout/page-header';
import { Skeleton } from '../../components/ui/skeleton';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { fragmentAddress, trackedBookingId } from './booking-query';
import { TrackedJob } from './tracked-job';

// The forms that find a booking show only without an id in the address: a tracking link never needs them.
const FindBooking = lazy(() => import('./find-booking'));

export default function TrackPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const id = trackedBookingId(location);
  // A link mailed with ?id= still opens; the id then moves into the fragment, replacing this entry,
  // so the history keeps no address that a server would be sent.
  const moved = fragmentAddress(location);
  useEffect(() => {
    if (moved) void navigate(moved, { replace: true });
  }, [moved, navigate]);
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

