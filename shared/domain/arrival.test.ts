import { describe, expect, it } from 'vitest';
import { ARRIVAL_ANSWER_GRACE_SECONDS, arrivalClaimMessage, arrivalDeadline, checkArrival, shortDistanceText } from './arrival';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');
const job = { lat: 37.7793, lng: -122.4193 };
/** `metres` north of the job, taken `agoS` seconds ago, `accuracy` metres wide. */
const fix = (metres: number, agoS = 10, accuracy: number | null = 10) => ({ lat: job.lat + metres / 111_195, lng: job.lng, accuracy, at: new Date(NOW - agoS * 1000).toISOString() });

describe('checkArrival', () => {
  it('takes the nearest recent, precise fix within the radius as proof', () => {
    // Act
    const check = checkArrival(job, [fix(400), fix(60), undefined], 150, NOW);

    // Assess
    expect(check).toMatchObject({ proven: true, distanceM: 60 });
  });

  it('says why not: no position to check, no usable fix (old, vague or without accuracy), or too far', () => {
    expect(checkArrival(null, [fix(0)], 150, NOW)).toEqual({ proven: false, reason: 'no-job-position', distanceM: null });
    expect(checkArrival(job, [fix(0, 121), fix(0, 10, 151), fix(0, 10, null)], 150, NOW)).toEqual({ proven: false, reason: 'no-fix', distanceM: null });
    expect(checkArrival(job, [fix(420)], 150, NOW)).toEqual({ proven: false, reason: 'too-far', distanceM: 420 });
  });
});

describe('arrivalDeadline', () => {
  it('gives a claim made before the deadline at least the answer time, and nothing to one made after it', () => {
    // Prepare
    const arriveBy = '2030-01-01T12:45:00.000Z';
    const at = (iso: string) => ({ claimedAt: iso });

    // Act
    const deadlines = [
      arrivalDeadline(arriveBy, undefined),
      arrivalDeadline(arriveBy, at('2030-01-01T12:10:00.000Z')),
      arrivalDeadline(arriveBy, at('2030-01-01T12:44:00.000Z')),
      arrivalDeadline(arriveBy, at('2030-01-01T12:46:00.000Z')),
    ];

    // Assess
    const deadline = Date.parse(arriveBy);
    expect(deadlines).toEqual([deadline, deadline, Date.parse('2030-01-01T12:44:00.000Z') + ARRIVAL_ANSWER_GRACE_SECONDS * 1000, deadline]);
  });
});

describe('what the pro is told', () => {
  it('words distances in the configured unit', () => {
    expect([shortDistanceText(420, 'km'), shortDistanceText(2500, 'km'), shortDistanceText(150, 'mi'), shortDistanceText(5000, 'mi')]).toEqual(['420 m', '2.5 km', '490 ft', '3.1 mi']);
  });

  it('says how far they are and that the customer was asked', () => {
    expect(arrivalClaimMessage({ reason: 'too-far', distanceM: 420 }, 150, 'km')).toBe(
      'You are 420 m from the address (arrived means within 150 m). We asked the customer to confirm you have arrived; until they do, the 45-minute deadline still applies.',
    );
  });
});
