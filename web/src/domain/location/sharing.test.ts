import { describe, expect, it } from 'vitest';
import { canStartSharing, currentLocation, initialPanelState, transition, type PanelEvent, type PanelState } from './sharing';

const fix = { latitude: 37.7793, longitude: -122.4193, accuracy: 12, timestamp: 1_000 };

function run(events: PanelEvent[], from: PanelState = initialPanelState) {
  const toasts: (string | null)[] = [];
  let state = from;
  for (const event of events) {
    const step = transition(state, event);
    state = step.state;
    toasts.push(step.toast?.title ?? null);
  }
  return { state, toasts };
}

describe('canStartSharing', () => {
  it('needs a known position and a request or job id', () => {
    const located = { ...initialPanelState, fix };
    expect(canStartSharing(initialPanelState, 'job-1')).toBe(false);
    expect(canStartSharing(located, null)).toBe(false);
    expect(canStartSharing(located, '  ')).toBe(false);
    expect(canStartSharing(located, 'job-1')).toBe(true);
    expect(canStartSharing({ ...located, sharing: true }, 'job-1')).toBe(false);
  });
});

describe('transition', () => {
  it('locates, then toggles sharing on and off with a toast each time', () => {
    // Act
    const { state, toasts } = run([{ type: 'locate' }, { type: 'fix', fix }, { type: 'start', targetId: 'job-1' }, { type: 'stop' }]);

    // Assess
    expect(toasts).toEqual([null, 'Location Detected', 'Location Sharing Started', 'Location Sharing Stopped']);
    expect(state).toMatchObject({ fix, sharing: false, locating: false, error: null });
  });

  it('refuses to start without a position or without a job, silently', () => {
    expect(run([{ type: 'start', targetId: 'job-1' }])).toEqual({ state: initialPanelState, toasts: [null] });
    const located = { ...initialPanelState, fix };
    expect(run([{ type: 'start', targetId: null }], located)).toEqual({ state: located, toasts: [null] });
  });

  it('takes moves while sharing without a toast per move', () => {
    const sharing = { ...initialPanelState, fix, sharing: true };
    const moved = { ...fix, latitude: 37.78, timestamp: 3_000 };
    const { state, toasts } = run([{ type: 'fix', fix: moved }], sharing);
    expect(state.fix).toEqual(moved);
    expect(state.sharing).toBe(true);
    expect(toasts).toEqual([null]);
  });

  it('turns a refused permission into an error state that offers a typed address', () => {
    const { state, toasts } = run([{ type: 'locate' }, { type: 'error', kind: 'denied' }]);
    expect(state).toMatchObject({ locating: false, error: 'denied', sharing: false });
    expect(toasts).toEqual([null, 'Location Access Denied']);
  });

  it('stops sharing when the permission is taken away, but not for a slow or lost signal', () => {
    const sharing = { ...initialPanelState, fix, sharing: true };
    const timedOut = run([{ type: 'error', kind: 'timeout' }, { type: 'error', kind: 'timeout' }, { type: 'error', kind: 'unavailable' }], sharing);
    expect(timedOut.state).toMatchObject({ sharing: true, error: 'unavailable', fix });
    // The same problem again is not toasted twice.
    expect(timedOut.toasts).toEqual(['Location Timeout', null, 'Location Unavailable']);

    const denied = run([{ type: 'error', kind: 'denied' }], sharing);
    expect(denied.state).toMatchObject({ sharing: false, error: 'denied' });
    expect(denied.toasts).toEqual(['Location Access Denied']);
  });

  it('says when the browser has no GPS', () => {
    expect(run([{ type: 'error', kind: 'unsupported' }]).toasts).toEqual(['GPS Not Supported']);
  });

  it('keeps a typed address in place of a fix, and a later fix in place of it', () => {
    // Prepare
    const located = { ...initialPanelState, fix, error: null };

    // Act
    const typed = run([{ type: 'manual', address: '12 Oak St', at: 5_000 }], located);
    const fixedAgain = run([{ type: 'locate' }, { type: 'fix', fix }], typed.state);

    // Assess
    expect(typed.state).toMatchObject({ fix: null, manualAddress: '12 Oak St', manualAt: 5_000 });
    expect(typed.toasts).toEqual(['Address Saved']);
    expect(fixedAgain.state).toMatchObject({ fix, manualAddress: null });
  });

  it('does not let a typed address replace a position that is being shared', () => {
    const sharing = { ...initialPanelState, fix, sharing: true };
    expect(run([{ type: 'manual', address: '12 Oak St', at: 0 }], sharing)).toEqual({ state: sharing, toasts: [null] });
  });

  it('ignores a second locate while one is under way or while sharing', () => {
    const locating = { ...initialPanelState, locating: true };
    expect(transition(locating, { type: 'locate' }).state).toBe(locating);
    const sharing = { ...initialPanelState, fix, sharing: true };
    expect(transition(sharing, { type: 'locate' }).state).toBe(sharing);
  });

  it('does nothing on stop when not sharing', () => {
    expect(run([{ type: 'stop' }])).toEqual({ state: initialPanelState, toasts: [null] });
  });
});

describe('currentLocation', () => {
  it('is the GPS fix with its address, or the typed address at 0, 0 with accuracy 0', () => {
    expect(currentLocation({ ...initialPanelState, fix }, '1 Main St')).toEqual({ ...fix, address: '1 Main St', source: 'gps' });
    expect(currentLocation({ ...initialPanelState, manualAddress: '12 Oak St', manualAt: 9 }, null)).toEqual({
      latitude: 0,
      longitude: 0,
      accuracy: 0,
      timestamp: 9,
      address: '12 Oak St',
      source: 'manual',
    });
    expect(currentLocation(initialPanelState, null)).toBeNull();
  });
});
