import type { WorkerJobView } from '../../../../shared/schemas/job';
import type { ToastInput } from '../../components/ui/toast-store';

/**
 * Mark Arrived with the device's own fix: the server counts it only when it is recent, precise and
 * close to the job, and otherwise asks the customer to confirm (the answer says which).
 */

/** A short wait: Mark Arrived must not hang on a phone that cannot see the sky. */
// maximumAge 0: a fix the phone cached on the way (blocks back) would not put the pro at the door.
export const ARRIVAL_POSITION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 8_000, maximumAge: 0 };

export interface ArrivalPosition {
  lat: number;
  lng: number;
  accuracy: number;
}

/** The fix as the server's schema takes it; null for one it would refuse. */
export function arrivalPosition(coords: { latitude: number; longitude: number; accuracy: number | null }): ArrivalPosition | null {
  const { latitude: lat, longitude: lng, accuracy } = coords;
  const finite = [lat, lng, accuracy].every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!finite || Math.abs(lat) > 90 || Math.abs(lng) > 180 || accuracy! < 0 || accuracy! > 100_000) return null;
  return { lat, lng, accuracy: accuracy! };
}

/**
 * The device's current fix, or null when the browser has none to give (no geolocation, refused,
 * timed out). Never waits past the options' timeout, even where a browser forgets to answer.
 */
export function currentPosition(geolocation: Geolocation | undefined = typeof navigator !== 'undefined' ? navigator.geolocation : undefined): Promise<ArrivalPosition | null> {
  if (!geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    const guard = setTimeout(() => resolve(null), (ARRIVAL_POSITION_OPTIONS.timeout ?? 8_000) + 1_000);
    const done = (position: ArrivalPosition | null) => {
      clearTimeout(guard);
      resolve(position);
    };
    try {
      geolocation.getCurrentPosition(
        (position) => done(arrivalPosition(position.coords)),
        () => done(null),
        ARRIVAL_POSITION_OPTIONS,
      );
    } catch {
      done(null);
    }
  });
}

/** What the pro is told after Mark Arrived: recorded, or the question the customer was asked and why. */
export function arrivalToast(view: Pick<WorkerJobView, 'state' | 'arrivalClaim'>): ToastInput {
  if (view.state === 'arrived') return { title: 'Arrival recorded', description: 'This job is now arrived. Start Work when you are ready.' };
  return {
    title: 'Waiting for the customer',
    description: view.arrivalClaim?.message ?? 'We asked the customer to confirm you have arrived.',
    duration: 10_000,
  };
}
