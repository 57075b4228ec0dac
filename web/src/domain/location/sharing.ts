import type { ToastInput } from '../../components/ui/toast-store';
import { locationErrorMessages, manualLocation, type Fix, type LocationErrorKind, type LocationFix } from './location';

/**
 * The GPS panel's state machine: idle <-> sharing by the
 * start/stop toggle, start only with a known position and a request or job to share it with; a
 * refused permission is an error state that offers a typed address. Every change the person makes
 * or suffers gets a toast, said here so the screen and the tests read the same words.
 */
export interface PanelState {
  /** The last GPS fix; null before one, or once a typed address replaced it. */
  fix: Fix | null;
  /** The typed address (already trimmed and checked); null unless it is the current location. */
  manualAddress: string | null;
  /** When it was typed (milliseconds since the epoch): the timestamp of its fix. */
  manualAt: number | null;
  /** A one-off position request is under way. */
  locating: boolean;
  sharing: boolean;
  error: LocationErrorKind | null;
}

export type PanelEvent =
  | { type: 'locate' }
  | { type: 'fix'; fix: Fix }
  | { type: 'error'; kind: LocationErrorKind }
  | { type: 'manual'; address: string; at: number }
  | { type: 'start'; targetId: string | null }
  | { type: 'stop' };

export const initialPanelState: PanelState = { fix: null, manualAddress: null, manualAt: null, locating: false, sharing: false, error: null };

/** Start is offered only with a position to send and somewhere to send it. */
export function canStartSharing(state: PanelState, targetId: string | null | undefined): boolean {
  return !state.sharing && state.fix !== null && Boolean(targetId?.trim());
}

/** The current location as a LocationFix: the GPS fix with its address, or the typed address at 0, 0. */
export function currentLocation(state: PanelState, address: string | null): LocationFix | null {
  if (state.fix) return { ...state.fix, address: address ?? '', source: 'gps' };
  if (state.manualAddress) return manualLocation(state.manualAddress, state.manualAt ?? 0);
  return null;
}

export const sharingStartedToast: ToastInput = {
  title: 'Location Sharing Started',
  description: 'Your location is shared with this job while this page stays open.',
};
export const sharingStoppedToast: ToastInput = { title: 'Location Sharing Stopped', description: 'Your location is no longer shared.' };

function errorToast(kind: LocationErrorKind): ToastInput {
  const { title, description } = locationErrorMessages[kind];
  return { title, description, variant: 'destructive' };
}

export function transition(state: PanelState, event: PanelEvent): { state: PanelState; toast: ToastInput | null } {
  switch (event.type) {
    case 'locate':
      // While sharing, the watch already delivers every move; a second request adds nothing.
      if (state.sharing || state.locating) return { state, toast: null };
      return { state: { ...state, locating: true, error: null }, toast: null };

    case 'fix': {
      const asked = state.locating;
      const next: PanelState = { ...state, fix: event.fix, manualAddress: null, manualAt: null, locating: false, error: null };
      // Only an asked-for fix is announced: while sharing, a toast per move would drown the screen.
      return {
        state: next,
        toast: asked ? { title: 'Location Detected', description: `Accurate to about ${Math.round(event.fix.accuracy)} m.` } : null,
      };
    }

    case 'error': {
      // A revoked permission (or a browser without GPS) ends sharing; a slow or lost signal does
      // not: the watch keeps trying and the last fix still stands.
      const ends = event.kind === 'denied' || event.kind === 'unsupported';
      const sharing = state.sharing && !ends;
      const next: PanelState = { ...state, locating: false, sharing, error: event.kind };
      const repeated = state.error === event.kind && state.sharing === sharing && !state.locating;
      return { state: next, toast: repeated ? null : errorToast(event.kind) };
    }

    case 'manual':
      // A typed address has no position, so it cannot stand in for one that is being shared.
      if (state.sharing) return { state, toast: null };
      return {
        state: { ...state, fix: null, manualAddress: event.address, manualAt: event.at, locating: false, error: null },
        toast: { title: 'Address Saved', description: event.address },
      };

    case 'start':
      if (!canStartSharing(state, event.targetId)) return { state, toast: null };
      return { state: { ...state, sharing: true, error: null }, toast: sharingStartedToast };

    case 'stop':
      if (!state.sharing) return { state, toast: null };
      return { state: { ...state, sharing: false }, toast: sharingStoppedToast };
  }
}
