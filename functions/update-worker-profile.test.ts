import { describe, expect, it } from 'vitest';
import { workersRepo } from './lib/data/workers';
import { newId } from './lib/ids';
import { presignUpload } from './lib/storage';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
import { createTestWorker, withBearer, workerToken } from './lib/testing/workers';
import { handler } from './update-worker-profile';

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
