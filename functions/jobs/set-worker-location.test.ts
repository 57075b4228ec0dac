import { describe, expect, it } from 'vitest';
import type { LatLng } from '../../shared/domain/geo';
import { handler } from './set-worker-location';
import { dispatchIndex, geohashOf } from './data/dispatch-index';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { north, testCategory, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('set-worker-location');

/** A worker on call and clocked in, of a category of its own, who has not shared a location yet. */
async function onCallWorker(overrides: Partial<WorkerItem> = {}) {
  const category = testCategory();
  const worker = await createTestWorker({
    isAvailable: true,
    isClockedIn: true,
    lastClockIn: new Date().toISOString(),
    categories: [category],
    ...overrides,
  });
  return { worker, category, token: await workerToken(worker.id) };
}

const sendLocation = (token: string, body: unknown) => invoke(handler, withBearer(withBody(sample, body), token));
const at = (point: LatLng, accuracy?: number) => ({ latitude: point.lat, longitude: point.lng, ...(accuracy === undefined ? {} : { accuracy }) });

describe('POST /api/workers/location', () => {
  it("stores the worker's location with its geohash and answers 204", async () => {
    // Prepare
    const { worker, token } = await onCallWorker();
    const place = testPlace();
    const before = Date.now();

    // Act
    const res = await sendLocation(token, at(place, 12));

    // Assess
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const stored = await workersRepo.findById(worker.id);
    expect(stored?.location).toMatchObject({ lat: place.lat, lng: place.lng, accuracy: 12, geohash: geohashOf(place) });
    expect(Date.parse(stored!.location!.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('stores a location sent without accuracy with accuracy null', async () => {
    const { worker, token } = await onCallWorker();

    const res = await sendLocation(token, at(testPlace()));

    expect(res.status).toBe(204);
    expect((await workersRepo.findById(worker.id))?.location?.accuracy).toBeNull();
  });

  it('makes a worker on call findable by dispatch near that point', async () => {
    // Prepare
    const { worker, category, token } = await onCallWorker();
    const place = testPlace();

    // Act
    await sendLocation(token, at(place));

    // Assess
    const found = await dispatchIndex.findNearest(category, north(place, 1), new Set(), 3);
    expect(found).toEqual([{ workerId: worker.id, location: { lat: place.lat, lng: place.lng } }]);
  });

  it('moves the dispatch entry with the worker: the old place no longer finds them', async () => {
    // Prepare
    const { worker, category, token } = await onCallWorker();
    const [first, second] = [testPlace(), testPlace()];
    await sendLocation(token, at(first));

    // Act
    const res = await sendLocation(token, at(second));

    // Assess
    expect(res.status).toBe(204);
    expect(await dispatchIndex.findNearest(category, first, new Set(), 3)).toEqual([]);
    expect((await dispatchIndex.findNearest(category, second, new Set(), 3)).map((c) => c.workerId)).toEqual([worker.id]);
  });

  it('stores the location of a worker off call without making them findable', async () => {
    const { worker, category, token } = await onCallWorker({ isClockedIn: false });
    const place = testPlace();

    const res = await sendLocation(token, at(place));

    expect(res.status).toBe(204);
    expect((await workersRepo.findById(worker.id))?.location?.geohash).toBe(geohashOf(place));
    expect(await dispatchIndex.findNearest(category, place, new Set(), 3)).toEqual([]);
  });

  it.each([
    ['latitude 100', { latitude: 100, longitude: 10 }, { latitude: 'Latitude must be between -90 and 90' }],
    ['a missing longitude', { latitude: 10 }, { longitude: 'Longitude must be a number' }],
    ['a negative accuracy', { latitude: 10, longitude: 10, accuracy: -1 }, { accuracy: 'Accuracy cannot be negative' }],
    ['an accuracy wider than the Earth', { latitude: 10, longitude: 10, accuracy: 30_000_000 }, { accuracy: 'Accuracy must be at most 20,000 km' }],
    ['an unknown field', { latitude: 10, longitude: 10, workerId: 'someone-else' }, { _: 'Unknown field: workerId' }],
  ])('refuses %s with 400 and stores nothing', async (_case, body, fields) => {
    // Prepare
    const { worker, token } = await onCallWorker();

    // Act
    const res = await sendLocation(token, body);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
    expect((await workersRepo.findById(worker.id))?.location).toBeUndefined();
  });

  it.each([1e100, 2 ** 53, -1e100])('refuses an accuracy of %s, a number the SDK cannot store, with 400 and stores nothing', async (accuracy) => {
    // Prepare
    const { worker, token } = await onCallWorker();

    // Act
    const res = await sendLocation(token, { latitude: 10, longitude: 10, accuracy });

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^(BadRequestError|ValidationError)$/);
    expect((await workersRepo.findById(worker.id))?.location).toBeUndefined();
  });

  it('refuses a call without a worker token with 401', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
  });

  it('refuses a token no login issued with 401', async () => {
    const res = await sendLocation('forged-token-forged-token-forged-token', at(testPlace()));

    expect(res.status).toBe(401);
  });

  it('refuses a terminated worker with 403 and stores nothing', async () => {
    const { worker, token } = await onCallWorker({ status: 'terminated', strikes: 2 });

    const res = await sendLocation(token, at(testPlace()));

    expect(res.status).toBe(403);
    expect((await workersRepo.findById(worker.id))?.location).toBeUndefined();
  });
});
