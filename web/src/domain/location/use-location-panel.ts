import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LatLng } from '../../../../shared/domain/geo';
import type { GeocodeResult } from '../../../../shared/schemas/job';
import { LOCATION_INTERVAL_MS } from '../../../../shared/realtime-limits';
import { queryKeys } from '../../lib/query-keys';
import { toast } from '../../components/ui/toast-store';
import {
  PANEL_POSITION_OPTIONS,
  addressOf,
  locationErrorKind,
  nextLookupPoint,
  validateManualAddress,
  type Fix,
} from './location';
import { canStartSharing, currentLocation, initialPanelState, transition, type PanelEvent, type PanelState } from './sharing';
import { createThrottle, samePlace, type Throttle } from './throttle';

export interface LocationPanelOptions {
  /** The request or job the position is shared with; sharing cannot start without one. */
  targetId: string | null;
  /** Sends one fix to the job room; false when it could not go (offline). */
  send: (fix: Fix) => boolean;
  /** True while the live connection is up: a reconnect sends the latest fix again. */
  connected: boolean;
}

export interface LocationPanelModel {
  state: PanelState;
  /** The looked-up address of the last fix; null while the lookup runs, when it found none, or without a fix. */
  address: string | null;
  addressPending: boolean;
  /** There is a fix, but the lookup failed or found no address: the person types theirs. */
  addressMissing: boolean;
  canStart: boolean;
  targetId: string | null;
  connected: boolean;
  locate: () => void;
  start: () => void;
  stop: () => void;
  /** Checks and keeps a typed address; returns the error text to show, or null when it was kept. */
  saveManual: (value: string) => string | null;
}

function geolocation(): Geolocation | null {
  return typeof navigator !== 'undefined' && 'geolocation' in navigator && navigator.geolocation ? navigator.geolocation : null;
}

function fixOf(position: GeolocationPosition): Fix {
  const { latitude, longitude, accuracy } = position.coords;
  return { latitude, longitude, accuracy, timestamp: position.timestamp };
}

/**
 * The GPS panel's behaviour: one position on request, a watch while sharing (each move sent through
 * `send`, at most once per 2 s), the address of the fix from our reverse geocoding route, and a
 * toast for every change (sharing.ts says which).
 */
export function useLocationPanel({ targetId, send, connected }: LocationPanelOptions): LocationPanelModel {
  const [state, setState] = useState<PanelState>(initialPanelState);
  // The machine runs outside React's updater so each toast is shown once, even under StrictMode.
  const current = useRef(state);
  const mounted = useRef(true);
  const attempt = useRef(0);

  const dispatch = useCallback((event: PanelEvent) => {
    if (!mounted.current) return;
    const step = transition(current.current, event);
    if (step.state === current.current) return;
    current.current = step.state;
    setState(step.state);
    if (step.toast) toast(step.toast);
  }, []);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      attempt.current += 1;
    };
  }, []);

  const locate = useCallback(() => {
    const geo = geolocation();
    if (!geo) return dispatch({ type: 'error', kind: 'unsupported' });
    if (current.current.sharing || current.current.locating) return;
    const mine = ++attempt.current;
    dispatch({ type: 'locate' });
    geo.getCurrentPosition(
      (position) => {
        if (mine === attempt.current) dispatch({ type: 'fix', fix: fixOf(position) });
      },
      (error) => {
        if (mine === attempt.current) dispatch({ type: 'error', kind: locationErrorKind(error.code) });
      },
      PANEL_POSITION_OPTIONS,
    );
  }, [dispatch]);

  const start = useCallback(() => {
    if (!geolocation()) return dispatch({ type: 'error', kind: 'unsupported' });
    dispatch({ type: 'start', targetId });
  }, [dispatch, targetId]);

  const stop = useCallback(() => dispatch({ type: 'stop' }), [dispatch]);

  const saveManual = useCallback(
    (value: string) => {
      const result = validateManualAddress(value);
      if (!result.ok) return result.message;
      dispatch({ type: 'manual', address: result.address, at: Date.now() });
      return null;
    },
    [dispatch],
  );

  // The job went away (finished, reassigned): nothing to share with any more.
  useEffect(() => {
    if (!targetId?.trim() && current.current.sharing) dispatch({ type: 'stop' });
  }, [targetId, dispatch]);

  // Kept in refs so a new `send` (a re-render) does not restart the watch.
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  }, [send]);
  const throttle = useRef<Throttle<Fix> | null>(null);

  useEffect(() => {
    const geo = geolocation();
    if (!state.sharing || !geo) return;
    const sender = createThrottle<Fix>(LOCATION_INTERVAL_MS, (fix) => sendRef.current(fix), { same: samePlace });
    throttle.current = sender;
    if (current.current.fix) sender.push(current.current.fix);
    const watch = geo.watchPosition(
      (position) => {
        const fix = fixOf(position);
        dispatch({ type: 'fix', fix });
        sender.push(fix);
      },
      (error) => dispatch({ type: 'error', kind: locationErrorKind(error.code) }),
      PANEL_POSITION_OPTIONS,
    );
    return () => {
      geo.clearWatch(watch);
      sender.cancel();
      throttle.current = null;
    };
  }, [state.sharing, dispatch]);

  // Back online: the server may have missed the last fix, and a worker standing still sends no new one.
  useEffect(() => {
    if (!connected || !throttle.current || !current.current.fix) return;
    throttle.current.forget();
    throttle.current.push(current.current.fix);
  }, [connected]);

  // Looked up again only after a move of more than 50 m: the geocoder is asked about streets, not steps.
  const [lookupPoint, setLookupPoint] = useState<LatLng | null>(null);
  const nextPoint = nextLookupPoint(lookupPoint, state.fix);
  if (nextPoint !== lookupPoint) setLookupPoint(nextPoint);

  const reverse = useQuery<GeocodeResult>({
    queryKey: queryKeys.reverseGeocode(nextPoint),
    enabled: nextPoint !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const fix = state.fix;
  const addressPending = fix !== null && reverse.isPending;
  // A failed lookup leaves the address unknown: the position still measures distances, but the
  // coordinates never stand in for an address (they would reach the hire form and the pro).
  const address = fix && !addressPending ? addressOf(reverse.data) : null;
  const addressMissing = fix !== null && !addressPending && address === null;

  return {
    state,
    address,
    addressPending,
    addressMissing,
    canStart: canStartSharing(state, targetId),
    targetId,
    connected,
    locate,
    start,
    stop,
    saveManual,
  };
}

/** The panel's location as a LocationFix (a typed address at 0, 0, accuracy 0). */
export function panelLocation(model: LocationPanelModel) {
  return currentLocation(model.state, model.address);
}
