import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useState } from 'react';
import type { GeocodeResult, WorkerListingView } from '../../../../shared/schemas/job';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { apiGet } from '../../lib/api';
import { useDocumentTitle } from '../../lib/use-document-title';
import { HireDialog } from './hire-dialog';
import { initialHireValues } from './hire-form';
import { HiresSection, useHires } from './hires-section';
import { addressOf, locationText } from './location';
import { LocationPanel } from './location-panel';
import { useCustomerLocation } from './use-location';
import { WorkerList, workerListKey } from './worker-list';

/** Once pressed, Find Available Workers stays pressed for the rest of the browser session. */
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
  const customerLocation = useCustomerLocation();
  const { fix } = customerLocation;
  const [manualAddress, setManualAddress] = useState('');
  const [hiring, setHiring] = useState<WorkerListingView | null>(null);
  const hires = useHires();

  const reverse = useQuery<GeocodeResult>({
    queryKey: ['/api/geocode/reverse', fix?.latitude ?? null, fix?.longitude ?? null],
    queryFn: ({ signal }) =>
      apiGet<GeocodeResult>(`/api/geocode/reverse?lat=${fix!.latitude.toFixed(6)}&lng=${fix!.longitude.toFixed(6)}`, { signal }),
    enabled: fix !== null,
  });
  const address = addressOf(reverse.data);

  const onFind = () => {
    if (searched) {
      void queryClient.refetchQueries({ queryKey: [workerListKey], type: 'active' });
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

      <LocationPanel
        state={customerLocation.state}
        onLocate={customerLocation.locate}
        lookup={{ pending: fix !== null && reverse.isPending, address }}
        manualAddress={manualAddress}
        onManualAddress={setManualAddress}
      />

      <WorkerList searched={searched} fix={fix} onHire={setHiring} />

      <HiresSection hires={hires} />

      {hiring ? (
        <HireDialog
          key={hiring.id}
          worker={hiring}
          initial={initialHireValues(hiring, hires.data?.[0], locationText(fix, address, manualAddress))}
          fix={fix}
          onClose={() => setHiring(null)}
        />
      ) : null}
    </div>
  );
}
