import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as clockIn } from './clock-in';
import { dynamo } from '../common/clients';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { workersRepo } from './data/workers';
import { newId } from '../common/ids';
import { presignUpload } from '../common/storage';
import { dispatchableWorker, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler as setAvailability } from './set-availability';
import { handler as setLocation } from '../jobs/set-worker-location';
import { handler } from './update-worker-profile';

afterEach(() => vi.restoreAllMocks());

const sample = sampleEvent('update-worker-profile');
const validBody = JSON.parse(sample.body!) as Record<string, unknown>;

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

/** A real upload through a presigned POST, as the browser makes it. */
async function upload(key: string): Promise<string> {
  const contentType = key.endsWith('.pdf') ? 'application/pdf' : 'image/png';
  const { url, fields } = await presignUpload({ key, contentType, maxBytes: 1024 });
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array([1, 2, 3, 4])], { type: contentType }));
  expect((await fetch(url, { method: 'POST', body: form })).ok).toBe(true);
  return key;
}

describe('PUT /api/workers/me', () => {
  it('updates the profile and returns the new worker view', async () => {
    // Prepare
    const { worker, token } = await asWorker();

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...validBody, id: worker.id, email: worker.email, profilePhotoUrl: null });
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ...validBody, status: 'active', strikes: 0 });
  });

  it('sets a photo uploaded as a profile photo and returns a presigned link to it', async () => {
    const { worker, token } = await asWorker();
    const key = await upload(`uploads/profile-photos/${newId()}.png`);

    const res = await invoke(handler, withBearer(withBody(sample, { ...validBody, profilePhoto: key }), token));

    expect(res.status).toBe(200);
    expect(new URL(res.body.profilePhotoUrl).pathname).toContain(key);
    expect((await fetch(res.body.profilePhotoUrl)).status).toBe(200);
    expect((await workersRepo.findById(worker.id))?.profilePhotoKey).toBe(key);
  });

  it('keeps the current photo when none is sent', async () => {
    const key = await upload(`uploads/profile-photos/${newId()}.png`);
    const { worker, token } = await asWorker({ profilePhotoKey: key });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.body.profilePhotoUrl).toContain(key);
    expect((await workersRepo.findById(worker.id))?.profilePhotoKey).toBe(key);
  });

  it.each([
    ['a photo that was never uploaded', async () => `uploads/profile-photos/${newId()}.png`],
    ['a file uploaded as another kind of document', async () => upload(`uploads/worker-documents/${newId()}.png`)],
    ['a PDF', async () => upload(`uploads/profile-photos/${newId()}.pdf`)],
  ])('refuses %s as the photo with 400 and changes nothing', async (_, keyOf) => {
    const { worker, token } = await asWorker();
    const profilePhoto = await keyOf();

    const res = await invoke(handler, withBearer(withBody(sample, { ...validBody, profilePhoto }), token));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ profilePhoto: 'Upload the photo again' });
    expect(await workersRepo.findById(worker.id)).toMatchObject({ fullName: worker.fullName, profilePhotoKey: null });
  });

  it.each([
    [{ fullName: 'A' }, { fullName: 'Full name required' }],
    [{ yearsExp: -1 }, { yearsExp: 'Years of experience required' }],
    [{ categories: [] }, { categories: 'At least one category required' }],
    [{ hourlyRate: 1000 }, { hourlyRate: 'Hourly rate must be at least $15' }],
    [{ workerId: 'someone-else' }, { _: 'Unknown field: workerId' }],
    [{ status: 'active', strikes: 0 }, { _: 'Unknown field: status, strikes' }],
  ])('refuses %j with 400 and changes nothing', async (change, fields) => {
    const { worker, token } = await asWorker();

    const res = await invoke(handler, withBearer(withBody(sample, { ...validBody, ...change }), token));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
    expect((await workersRepo.findById(worker.id))?.fullName).toBe(worker.fullName);
  });

  it.each([
    ['one trade 1,000 times', Array.from({ length: 1000 }, () => 'plumbing')],
    ['one trade twice', ['plumbing', 'electrical', 'plumbing']],
  ])('refuses %s with 400 and changes nothing', async (_case, categories) => {
    // Prepare
    const { worker, token } = await asWorker({ isAvailable: true, isClockedIn: true });

    // Act
    const res = await invoke(handler, withBearer(withBody(sample, { ...validBody, categories }), token));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ categories: 'Choose each category once' });
    expect((await workersRepo.findById(worker.id))?.categories).toEqual(worker.categories);
  });

  it('moves an on-call worker to their new trades in dispatch with the profile', async () => {
    // Prepare
    const place = testPlace();
    const worker = await dispatchableWorker('plumbing', place);
    const token = await workerToken(worker.id);

    // Act
    const res = await invoke(handler, withBearer(withBody(sample, { ...validBody, categories: ['painting', 'cleaning'] }), token));

    // Assess
    expect(res.status).toBe(200);
    const found = async (category: string) => (await dispatchIndex.listAvailable([category], 1000)).some((c) => c.workerId === worker.id);
    expect(await found('plumbing')).toBe(false);
    expect(await found('painting')).toBe(true);
    expect(await found('cleaning')).toBe(true);
  });

  it('changes nothing when the dispatch entries cannot be written: the profile and the index change together', async () => {
    // Prepare: DynamoDB throttles every write that touches the dispatch index
    const worker = await dispatchableWorker('plumbing', testPlace());
    const token = await workerToken(worker.id);
    const send = dynamo.send.bind(dynamo);
    vi.spyOn(dynamo, 'send').mockImplementation((async (command: { input: unknown }) => {
      if (JSON.stringify(command.input).includes('DISPATCH#')) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      return send(command as never);
    }) as never);

    // Act
    const res = await invoke(handler, withBearer(withBody(sample, { ...validBody, categories: ['painting'] }), token));

    // Assess
    vi.restoreAllMocks();
    expect(res.status).toBe(503);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ fullName: worker.fullName, categories: ['plumbing'] });
  });

  it('lets a worker whose stored profile lists one trade 1,000 times go on call, clock in and share a location', async () => {
    // Prepare: a profile saved before lists were checked
    const { worker, token } = await asWorker({ categories: Array.from({ length: 1000 }, () => 'plumbing') });
    const call = (fn: typeof handler, name: string, body?: unknown) =>
      invoke(fn, withBearer(body === undefined ? sampleEvent(name) : withBody(sampleEvent(name), body), token));

    // Act
    const availability = await call(setAvailability, 'set-availability', { isAvailable: true });
    const clockedIn = await call(clockIn, 'clock-in');
    const place = testPlace();
    const located = await call(setLocation, 'set-worker-location', { latitude: place.lat, longitude: place.lng });

    // Assess
    expect([availability.status, clockedIn.status, located.status]).toEqual([200, 200, 204]);
    expect((await dispatchIndex.listAvailable(['plumbing'], 1000)).some((c) => c.workerId === worker.id)).toBe(true);
  });

  it.each(['pending_review', 'terminated'] as const)('refuses a %s worker with 403 and changes nothing', async (status) => {
    const { worker, token } = await asWorker({ status });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(403);
    expect((await workersRepo.findById(worker.id))?.fullName).toBe(worker.fullName);
  });

  it("changes only the token's worker", async () => {
    const { token } = await asWorker();
    const other = await createTestWorker();

    await invoke(handler, withBearer(sample, token));

    expect((await workersRepo.findById(other.id))?.fullName).toBe(other.fullName);
  });

  it('refuses a call without a token with 401', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });
});
