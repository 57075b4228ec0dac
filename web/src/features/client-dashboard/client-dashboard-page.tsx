import { useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import type { WorkerListingView } from '../../../../shared/schemas/job';
import { PageHeader } from '../../components/layout/page-header';
import { locationText, type Fix } from '../../domain/location/location';
import { GpsLocationPanel } from '../../domain/location/location-panel';
import { useLocationPanel } from '../../domain/location/use-location-panel';
import { Button } from '../../components/ui/button';
import { useRealtimeSend, useRealtimeStatus } from '../../lib/realtime';
import { useDocumentTitle } from '../../lib/use-document-title';
import { initialHireValues } from './hire-values';
import { HiresSection, useHires } from './hires-section';
import { emptyServiceArea, type ServiceArea } from './service-address';
import { WorkerList } from './worker-list';
import { queryKeys } from '../../lib/query-keys';

/** Once pressed, Find Available Workers stays pressed for the rest of the browser session. */
// Loaded when a pro is first chosen: the hire form is not needed to show the list.
const HireDialog = lazy(() => import('./hire-dialog').then((m) => ({ default: m.HireDialog })));

const SEARCHED_KEY = 'fixly.clientDashboard.searched';

function readSearched(): boolean {
  try {
    return sessionStorage.getItem(SEARCHED_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberSearched(): void {
  try {
    sessionStorage.setItem(SEARCHED_KEY, '1');
  } catch {
    // Storage can be off (private modes); the list still shows for this visit.
  }
}

export default function ClientDashboardPage() {
  useDocumentTitle('Client Dashboard');
  const queryClient = useQueryClient();
  const [searched, setSearched] = useState(readSearched);
  const [hiring, setHiring] = useState<WorkerListingView | null>(null);
  const [area, setArea] = useState<ServiceArea>(emptyServiceArea);
  const hires = useHires();

  // The customer shares their position with the hire a professional is working on (sharing needs
  // a request to share with), as location_update frames to its job room.
  const sharedWith = hires.data?.find((request) => request.status === 'In Progress')?.id ?? null;
  const realtimeSend = useRealtimeSend();
  const connected = useRealtimeStatus() === 'connected';
  const send = useCallback(
    (position: Fix) =>
      sharedWith !== null &&
      realtimeSend('location_update', {
        requestId: sharedWith,
        sender: 'customer',
        latitude: position.latitude,
        longitude: position.longitude,
        accuracy: position.accuracy,
      }),
    [realtimeSend, sharedWith],
  );
  const location = useLocationPanel({ targetId: sharedWith, send, connected });
  const fix = location.state.fix;
  const manualAddress = location.state.manualAddress ?? '';

  const onFind = () => {
    if (searched) {
      void queryClient.refetchQueries({ queryKey: queryKeys.workerListings, type: 'active' });
      return;
    }
    rememberSearched();
    setSearched(true);
  };

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12">
      <div>
        <PageHeader
          title="Client Dashboard"
          subtitle="Find a verified professional who can take your job now, hire them, and follow your hires here."
        />
        <div className="flex justify-center">
          <Button size="lg" onClick={onFind}>
            <Search aria-hidden="true" className="size-5" /> Find Available Workers
          </Button>
        </div>
      </div>

      <GpsLocationPanel
        idPrefix="client-location"
        title="Your location"
        intro="With your position your hire tells the professional where to come. Once a hire is in progress you can share your position with your professional live. How far each professional is comes from the service address you save below."
        panel={location}
        noTargetHint="Sharing opens once a professional is working on one of your hires."
        manualHint="It fills the hire form."
      />

      <WorkerList searched={searched} area={area} onAreaChange={setArea} onHire={setHiring} />

      <HiresSection hires={hires} />

      {hiring ? (
        <Suspense fallback={null}>
          <HireDialog
          key={hiring.id}
          worker={hiring}
          initial={initialHireValues(hiring, hires.data?.[0], locationText(fix, location.address, manualAddress) || area.text.trim())}
          fix={fix}
          onClose={() => setHiring(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
