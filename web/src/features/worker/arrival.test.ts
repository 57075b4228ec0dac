import { describe, expect, it, vi } from 'vitest';
import { arrivalPosition, arrivalToast, currentPosition } from './arrival';

/** A browser's geolocation that answers with `coords`, fails with `code`, or never answers. */
function geolocation(answer: { coords: { latitude: number; longitude: number; accuracy: number } } | { code: number } | 'silent'): Geolocation {
  return {
    getCurrentPosition: (ok: PositionCallback, fail?: PositionErrorCallback | null) => {
      if (answer === 'silent') return;
      if ('code' in answer) fail?.({ code: answer.code, message: 'no' } as GeolocationPositionError);
      else ok({ coords: answer.coords, timestamp: Date.now() } as GeolocationPosition);
    },
  } as unknown as Geolocation;
}

describe('the fix sent with Mark Arrived', () => {
  it('is the device\'s current fix when the browser has one', async () => {
    // Act
    const position = await currentPosition(geolocation({ coords: { latitude: 37.7793, longitude: -122.4193, accuracy: 12 } }));

    // Assess
    expect(position).toEqual({ lat: 37.7793, lng: -122.4193, accuracy: 12 });
  });

  it('is none when the browser has no geolocation or refuses', async () => {
    expect(await currentPosition(undefined)).toBeNull();
    expect(await currentPosition(geolocation({ code: 1 }))).toBeNull();
  });

  it('is none, rather than a Mark Arrived that hangs, when the browser never answers', async () => {
    // Prepare
    vi.useFakeTimers();
    try {
      // Act
      const pending = currentPosition(geolocation('silent'));
      await vi.runAllTimersAsync();

      // Assess
      expect(await pending).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves out a fix the server would refuse', () => {
    expect(arrivalPosition({ latitude: 91, longitude: 0, accuracy: 5 })).toBeNull();
    expect(arrivalPosition({ latitude: 10, longitude: 10, accuracy: null })).toBeNull();
  });
});

describe('what the pro is told after Mark Arrived', () => {
  it('says the arrival is recorded, or passes on what the server said the customer was asked', () => {
    // Prepare
    const message = 'You are 420 m from the address (arrived means within 150 m). We asked the customer to confirm you have arrived.';

    // Act
    const recorded = arrivalToast({ state: 'arrived', arrivalClaim: null });
    const asked = arrivalToast({ state: 'accepted', arrivalClaim: { claimedAt: '2030-01-01T12:00:00.000Z', reason: 'too-far', distanceM: 420, message } });

    // Assess
    expect(recorded.title).toBe('Arrival recorded');
    expect(asked).toMatchObject({ title: 'Waiting for the customer', description: message });
  });
});
