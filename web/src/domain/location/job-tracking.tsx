import { Navigation } from 'lucide-react';
import { Component, Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import type { JobState } from '../../../../shared/domain/booking-status';
import type { LatLng } from '../../../../shared/domain/geo';
import { useJobRoom, useRealtimeEvent } from '../../lib/realtime';
import { toast } from '../../components/ui/toast-store';
import { applyLive, initialLive, trackingView, workStatusToast, type LiveTracking } from './tracking';
import type { MapPro } from './live-map';

// Leaflet (and its CSS) load with the first map shown, never with the page that holds the card.
// lazy() remembers a failed load for good, so a failure makes a fresh one for the next try.
const lazyMap = () => lazy(() => import('./live-map'));
let LiveMap = lazyMap();

/** Keeps a map that could not load (its chunk, offline) from taking the card down: the text stays. */
class MapBoundary extends Component<{ onFail: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    LiveMap = lazyMap();
    this.props.onFail();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** A tile that fails (offline) hides the map until the browser is back online. */
function useMapFailed(): [boolean, () => void] {
  const [mapFailed, setMapFailed] = useState(() => !isOnline());
  const onMapFailed = useCallback(() => setMapFailed(true), []);
  useEffect(() => {
    const back = () => setMapFailed(false);
    const gone = () => setMapFailed(true);
    window.addEventListener('online', back);
    window.addEventListener('offline', gone);
    return () => {
      window.removeEventListener('online', back);
      window.removeEventListener('offline', gone);
    };
  }, []);
  return [mapFailed, onMapFailed];
}

/**
 * One map of a crew: the customer's place and a marker per pro whose position is known, from the
 * polled request (each pro's own job room carries their live points; the lead's page refetches on
 * their events). Leaflet loads with the first map, as for one pro; without tiles the crew's list
 * carries it all.
 */
export function CrewMap({ customer, pros }: { customer: LatLng | null; pros: readonly MapPro[] }) {
  const [mapFailed, onMapFailed] = useMapFailed();
  if (pros.length === 0) return null;
  if (mapFailed) return <p className="text-sm text-slate-300">The map cannot load right now; each pro's state above stays up to date.</p>;
  return (
    <MapBoundary onFail={onMapFailed}>
      <Suspense fallback={<div className="h-56 w-full animate-pulse rounded-xl bg-slate-800 sm:h-64" aria-hidden="true" />}>
        <LiveMap customer={customer} pros={pros} label="Map of your pros' locations" onTilesFailed={onMapFailed} />
      </Suspense>
    </MapBoundary>
  );
}

/**
 * Live tracking of an In Progress request for its customer: holds the job room, follows the
 * professional's position, ETA and arrival status from its events (with the polled request as the
 * fallback), and shows them as text and on a map. Without tiles (offline) the map steps aside and
 * the text carries it all.
 */
export function JobTracking({
  jobId,
  jobState,
  etaMinutes,
  customer,
}: {
  jobId: string;
  jobState: JobState;
  /** The polled request's ETA, until a live one arrives. */
  etaMinutes: number | null;
  /** Where the professional is going (the request's position); null when unknown. */
  customer: LatLng | null;
}) {
  useJobRoom(jobId, 'customer');
  const [live, setLive] = useState<LiveTracking>(initialLive);

  useRealtimeEvent('worker:loc', (data) => setLive((known) => applyLive(known, jobId, { event: 'worker:loc', data })));
  useRealtimeEvent('work_status', (data) => {
    if (data?.requestId !== jobId) return;
    setLive((known) => applyLive(known, jobId, { event: 'work_status', data }));
    const note = workStatusToast(data.status);
    if (note) toast(note);
  });

  const view = trackingView({ jobState, etaMinutes, customer }, live);
  const [mapFailed, onMapFailed] = useMapFailed();
  const hasPoint = view.customer !== null || view.worker !== null;

  return (
    <section aria-label="Live tracking" className="grid gap-3" data-testid="job-tracking" data-job-id={jobId}>
      {/* Polite: each new status, distance or ETA is read once, without interrupting. */}
      <div aria-live="polite" aria-atomic="true" className="grid gap-1 text-sm">
        {view.label ? (
          <p className="flex flex-wrap items-center gap-x-2 font-semibold text-blue-200">
            <Navigation aria-hidden="true" className="size-4 shrink-0 text-blue-300" />
            <span data-testid="arrival-status">{view.label}</span>
          </p>
        ) : null}
        {view.eta ? (
          <p className="text-slate-100" data-testid="tracking-eta">
            <span className="text-slate-300">ETA: </span>
            {view.eta}
          </p>
        ) : null}
        {view.distance ? (
          <p className="text-slate-100" data-testid="tracking-distance">
            <span className="text-slate-300">Your professional is </span>
            {view.distance}
          </p>
        ) : null}
        {view.eta && !view.worker ? <p className="text-slate-300">Waiting for your professional's live location.</p> : null}
      </div>
      {hasPoint && !mapFailed ? (
        <MapBoundary onFail={onMapFailed}>
          <Suspense fallback={<div className="h-56 w-full animate-pulse rounded-xl bg-slate-800 sm:h-64" aria-hidden="true" />}>
            <LiveMap customer={view.customer} worker={view.worker} label="Map of your professional's location" onTilesFailed={onMapFailed} />
          </Suspense>
        </MapBoundary>
      ) : null}
      {hasPoint && mapFailed ? <p className="text-sm text-slate-300">The map cannot load right now; the distance and arrival time above stay up to date.</p> : null}
    </section>
  );
}
