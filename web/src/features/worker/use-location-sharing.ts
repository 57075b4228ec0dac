import { useCallback, useRef, useState } from 'react';
import { GEOLOCATION_OPTIONS, locationBody } from './location';
import { workerCall } from './worker-api';

/**
 * idle: not asked yet; locating: waiting for the browser or the server; shared: dispatch has it;
 * refused: the browser gave no fix (denied, unavailable, timed out); failed: the server did not take it.
 */
export type LocationStatus = 'idle' | 'locating' | 'shared' | 'refused' | 'failed';

/**
 * Sends the worker's position to dispatch (POST /api/workers/location). Failures are reported
 * through `status` only: the screen shows one quiet note instead of a toast per attempt.
 */
export function useLocationSharing() {
  const [status, setStatus] = useState<LocationStatus>('idle');
  // Stays set through a retry, so the note does not vanish and come back while the browser works.
  const [problem, setProblem] = useState<'refused' | 'failed' | null>(null);
  const busy = useRef(false);

  const share = useCallback(() => {
    if (busy.current) return;
    const geolocation = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
    if (!geolocation) {
      setStatus('refused');
      setProblem('refused');
      return;
    }
    busy.current = true;
    setStatus('locating');
    geolocation.getCurrentPosition(
      (position) => {
        const body = locationBody(position.coords);
        if (!body) {
          busy.current = false;
          setStatus('refused');
          setProblem('refused');
          return;
        }
        workerCall('POST /api/workers/location', { body })
          .then(
            () => {
              setStatus('shared');
              setProblem(null);
            },
            () => {
              setStatus('failed');
              setProblem('failed');
            },
          )
          .finally(() => {
            busy.current = false;
          });
      },
      () => {
        busy.current = false;
        setStatus('refused');
        setProblem('refused');
      },
      GEOLOCATION_OPTIONS,
    );
  }, []);

  return { status, problem, share };
}
