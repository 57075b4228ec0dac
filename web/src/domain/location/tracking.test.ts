import { describe, expect, it } from 'vitest';
import {
  applyLive,
  arrivalLabel,
  arrivalOfEvent,
  arrivalOfJob,
  distanceText,
  etaText,
  furthestArrival,
  initialLive,
  pointOf,
  trackingView,
  workStatusToast,
  type LiveTracking,
} from './tracking';

const home = { lat: 37.7793, lng: -122.4193 };
const stamp = '2025-01-01T10:00:00.000Z';

describe('arrival labels', () => {
  it('reads en_route as "On the way", arrived as "Arrived", and anything else as "Working"', () => {
    expect(arrivalLabel(arrivalOfEvent('en_route'))).toBe('On the way');
    expect(arrivalLabel(arrivalOfEvent('arrived'))).toBe('Arrived');
    expect(arrivalLabel(arrivalOfEvent('work_started'))).toBe('Working');
    expect(arrivalLabel(arrivalOfEvent('something_new'))).toBe('Working');
  });

  it('keeps one minute away on the way', () => {
    expect(arrivalLabel(arrivalOfEvent('one_minute_away'))).toBe('On the way');
  });

  it('names the polled job states', () => {
    expect(arrivalOfJob('accepted')).toBe('accepted');
    expect(arrivalLabel('accepted')).toBe('Accepted');
    expect(arrivalOfJob('en_route')).toBe('en_route');
    expect(arrivalOfJob('in_progress')).toBe('working');
    expect(arrivalOfJob('offered')).toBeNull();
  });

  it('never moves back: the further of the polled and live status wins', () => {
    expect(furthestArrival('en_route', 'arrived')).toBe('arrived');
    expect(furthestArrival('arrived', 'en_route')).toBe('arrived');
    expect(furthestArrival(null, 'en_route')).toBe('en_route');
    expect(furthestArrival('working', null)).toBe('working');
  });
});

describe('etaText and distanceText', () => {
  it('says "Calculating..." until the ETA is known, never less than a minute', () => {
    expect(etaText(null)).toBe('Calculating...');
    expect(etaText(Number.NaN)).toBe('Calculating...');
    expect(etaText(7.4)).toBe('Arriving in about 7 min');
    expect(etaText(0)).toBe('Arriving in about 1 min');
  });

  it('writes metres under a kilometre and kilometres above', () => {
    expect(distanceText(0.347)).toBe('350 m away');
    expect(distanceText(0.001)).toBe('10 m away');
    expect(distanceText(3.24)).toBe('3.2 km away');
  });
});

describe('pointOf', () => {
  it('refuses unknown, invalid and 0, 0 positions', () => {
    expect(pointOf(37.7, -122.4)).toEqual({ lat: 37.7, lng: -122.4 });
    expect(pointOf(0, 0)).toBeNull();
    expect(pointOf(null, 1)).toBeNull();
    expect(pointOf(91, 0)).toBeNull();
  });
});

describe('applyLive', () => {
  it("takes the worker's point and the ETA from one worker:loc frame, for this job only", () => {
    // Prepare
    let live: LiveTracking = initialLive;

    // Act
    live = applyLive(live, 'job-1', { event: 'worker:loc', data: { jobId: 'job-1', lat: 37.8, lng: -122.4, accuracy: 8, eta: 9, timestamp: stamp } });
    const afterFirst = live;
    live = applyLive(live, 'job-1', { event: 'worker:loc', data: { jobId: 'job-2', lat: 1, lng: 1, accuracy: 8, eta: 1, timestamp: stamp } });

    // Assess
    expect(afterFirst).toEqual({ worker: { lat: 37.8, lng: -122.4, accuracy: 8, timestamp: stamp }, eta: 9, arrival: null });
    expect(live).toBe(afterFirst);
  });

  it('keeps a known ETA when a fix comes without one (a job with no position), and moves the point', () => {
    // Prepare
    const later = '2025-01-01T10:00:02.000Z';
    const known = applyLive(initialLive, 'job-1', { event: 'work_status', data: { requestId: 'job-1', status: 'one_minute_away', eta: null, timestamp: stamp } });

    // Act
    const live = applyLive(known, 'job-1', { event: 'worker:loc', data: { jobId: 'job-1', lat: 37.81, lng: -122.41, accuracy: null, eta: null, timestamp: later } });

    // Assess
    expect(live).toMatchObject({ eta: 1, worker: { lat: 37.81, lng: -122.41, accuracy: null, timestamp: later } });
  });

  it('moves the arrival status forward and counts one minute away as a 1 minute ETA', () => {
    let live = applyLive(initialLive, 'job-1', { event: 'work_status', data: { requestId: 'job-1', status: 'one_minute_away', eta: null, timestamp: stamp } });
    expect(live).toMatchObject({ arrival: 'en_route', eta: 1 });
    live = applyLive(live, 'job-1', { event: 'work_status', data: { requestId: 'job-1', status: 'arrived', eta: null, timestamp: stamp } });
    live = applyLive(live, 'job-1', { event: 'work_status', data: { requestId: 'job-1', status: 'en_route', eta: null, timestamp: stamp } });
    expect(live.arrival).toBe('arrived');
  });
});

describe('trackingView', () => {
  it('shows "Calculating..." and no distance until the worker has a position', () => {
    expect(trackingView({ jobState: 'accepted', etaMinutes: null, customer: home }, initialLive)).toEqual({
      status: 'accepted',
      label: 'Accepted',
      customer: home,
      worker: null,
      distance: null,
      eta: 'Calculating...',
    });
  });

  it('measures the distance and prefers the live ETA over the polled one', () => {
    const live: LiveTracking = { worker: { lat: 37.7883, lng: -122.4193, accuracy: 5, timestamp: stamp }, eta: 4, arrival: 'en_route' };
    const view = trackingView({ jobState: 'accepted', etaMinutes: 12, customer: home }, live);
    expect(view).toMatchObject({ label: 'On the way', distance: '1.0 km away', eta: 'Arriving in about 4 min' });
  });

  it("estimates from the two points when the server has not said, and from the poll when it has", () => {
    const live: LiveTracking = { worker: { lat: 37.7883, lng: -122.4193, accuracy: 5, timestamp: stamp }, eta: null, arrival: null };
    // 1 km straight, 1.3 km by road at 30 km/h is 2.6 min, plus 5 to set off: 8 min rounded up.
    expect(trackingView({ jobState: 'en_route', etaMinutes: null, customer: home }, live).eta).toBe('Arriving in about 8 min');
    expect(trackingView({ jobState: 'en_route', etaMinutes: 11, customer: home }, live).eta).toBe('Arriving in about 11 min');
  });

  it('drops the ETA and distance once the professional is there', () => {
    const live: LiveTracking = { worker: { ...home, accuracy: 5, timestamp: stamp }, eta: 3, arrival: 'arrived' };
    expect(trackingView({ jobState: 'en_route', etaMinutes: 3, customer: home }, live)).toMatchObject({ label: 'Arrived', eta: null, distance: null });
    expect(trackingView({ jobState: 'in_progress', etaMinutes: null, customer: home }, initialLive)).toMatchObject({ label: 'Working', eta: null });
  });
});

describe('workStatusToast', () => {
  it('shows 1 minute away and work started for 10 s, and the arrival for 15 s', () => {
    expect(workStatusToast('one_minute_away')).toMatchObject({ title: 'Your professional is 1 minute away', duration: 10_000 });
    expect(workStatusToast('arrived')).toMatchObject({ duration: 15_000 });
    expect(workStatusToast('work_started')).toMatchObject({ duration: 10_000 });
    expect(workStatusToast('unknown')).toBeNull();
  });
});
