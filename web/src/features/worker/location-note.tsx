import { MapPin } from 'lucide-react';
import { Button } from '../../components/ui/button';
import type { LocationStatus } from './use-location-sharing';

export interface LocationSharing {
  status: LocationStatus;
  problem: 'refused' | 'failed' | null;
  share: () => void;
}

/** The quiet note shown while dispatch has no position for a clocked-in worker, with a way to try again. */
export function LocationNote({ location }: { location: LocationSharing }) {
  const locating = location.status === 'locating';
  // The live region is always there so the note is announced once when it appears.
  return (
    <div role="status">
      {location.problem ? (
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300/30 bg-slate-900/90 px-4 py-3 text-sm text-slate-100">
          <p className="flex items-center gap-2">
            <MapPin aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
            <span>
              {location.problem === 'failed' ? 'Your location could not be sent. ' : null}
              Share your location so nearby jobs reach you first.
            </span>
          </p>
          <Button variant="outline" size="sm" onClick={location.share} disabled={locating}>
            {locating ? 'Locating...' : 'Share location'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
