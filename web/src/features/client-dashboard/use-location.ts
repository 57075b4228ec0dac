import { useCallback, useEffect, useRef, useState } from 'react';
import { dashboardPositionOptions, locationErrorKind, type Fix, type LocationErrorKind } from './location';

export type LocationState =
  | { status: 'idle' }
  | { status: 'locating' }
  | { status: 'fixed'; fix: Fix }
  | { status: 'error'; kind: LocationErrorKind };

/**
 * One position request at a time from the browser (no watch: live sharing comes with live
 * tracking). A newer press wins over an older answer; an answer after unmount is dropped.
 */
export function useCustomerLocation() {
  const [state, setState] = useState<LocationState>({ status: 'idle' });
  const attempt = useRef(0);

  useEffect(
    () => () => {
      attempt.current += 1;
    },
    [],
  );

  const locate = useCallback(() => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      setState({ status: 'error', kind: 'unsupported' });
      return;
    }
    const current = ++attempt.current;
    setState({ status: 'locating' });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        if (current !== attempt.current) return;
        const { latitude, longitude, accuracy } = position.coords;
        setState({ status: 'fixed', fix: { latitude, longitude, accuracy, timestamp: position.timestamp } });
      },
      (error) => {
        if (current !== attempt.current) return;
        setState({ status: 'error', kind: locationErrorKind(error.code) });
      },
      dashboardPositionOptions,
    );
  }, []);

  return { state, locate, fix: state.status === 'fixed' ? state.fix : null };
}
