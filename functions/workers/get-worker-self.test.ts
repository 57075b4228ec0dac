import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler } from './get-worker-self';
import { sessions } from '../common/auth/sessions';
import { hashSecret, newSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import { newId } from '../common/ids';
import { presignUpload } from '../common/storage';
import { invoke, sampleEvent, withHeaders } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('get-worker-self');
const selfFields = [
  'categories', 'email', 'fullName', 'hourlyRate', 'id', 'isAvailable', 'isClockedIn', 'lastClockIn',
  'offersPausedFor', 'profilePhotoUrl', 'status', 'strikes', 'workerType', 'yearsExp',
];

/** A session row whose expiry has passed (the table's TTL deletes such rows only late). */
async function expiredToken(workerId: string): Promise<string> {
  const secret = newSecret();
  const createdAt = new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString();
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.session(hashSecret(secret)),
        ...keys.sessionsOf('worker', workerId, createdAt),
        entity: 'session',
        role: 'worker',
        subjectId: workerId,
        username: 'expired',
        createdAt,
        expiresAt: Math.floor(Date.now() / 1000) - 60,
      },
    }),
  );
  return secret;
}

/** A real upload through a presigned POST, as the browser makes it. */
async function uploadPhoto(): Promise<string> {
  const key = `uploads/profile-photos/${newId()}.png`;
  const { url, fields } = await presignUpload({ key, contentType: 'image/png', maxBytes: 1024 });
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }));
  const res = await fetch(url, { method: 'POST', body: form });
  expect(res.ok).toBe(true);
  return key;
}

describe('GET /api/workers/me', () => {
  it("returns the token's own worker and nothing private", async () => {
    // Prepare
    const worker = await createTestWorker({ fullName: 'Maria Lopez', strikes: 1 });
    const token = await workerToken(worker.id);

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(selfFields);
    expect(res.body).toMatchObject({
      id: worker.id,
      fullName: 'Maria Lopez',
      email: worker.email,
      status: 'active',
      strikes: 1,
      isAvailable: false,
      isClockedIn: false,
      lastClockIn: null,
      profilePhotoUrl: null,
    });
  });

  it('answers each token with its own worker, never another', async () => {
    const [a, b] = await Promise.all([createTestWorker(), createTestWorker()]);
    const [tokenA, tokenB] = await Promise.all([workerToken(a.id), workerToken(b.id)]);

    const resA = await invoke(handler, withBearer(sample, tokenA));
    const resB = await invoke(handler, withBearer(sample, tokenB));

    expect(resA.body.id).toBe(a.id);
    expect(resB.body.id).toBe(b.id);
  });

  it.each([
    ['pending_review', 0],
    ['terminated', 2],
  ] as const)('lets a %s worker read their status', async (status, strikes) => {
    const worker = await createTestWorker({ status, strikes });

    const res = await invoke(handler, withBearer(sample, await workerToken(worker.id)));

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status, strikes });
  });

  it('gives the profile photo as a short-lived presigned link that works', async () => {
    const key = await uploadPhoto();
    const worker = await createTestWorker({ profilePhotoKey: key });

    const res = await invoke(handler, withBearer(sample, await workerToken(worker.id)));

    const url = new URL(res.body.profilePhotoUrl);
    expect(url.pathname).toContain(key);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect((await fetch(url)).status).toBe(200);
  });

  it('refuses a request without a token with 401', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Log in as a worker to continue.');
  });

  it('refuses a forged token with 401', async () => {
    const res = await invoke(handler, withBearer(sample, newSecret()));

    expect(res.status).toBe(401);
  });

  it('refuses an expired session with 401', async () => {
    const worker = await createTestWorker();

    const res = await invoke(handler, withBearer(sample, await expiredToken(worker.id)));

    expect(res.status).toBe(401);
  });

  it("refuses the token of a terminated worker's ended session with 401", async () => {
    const worker = await createTestWorker({ status: 'terminated', strikes: 2 });
    const token = await workerToken(worker.id);
    await sessions.end(token);

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(401);
  });

  it("refuses an owner's session used as a bearer token", async () => {
    const { secret } = await sessions.start('admin', newId(), 'owner');

    const res = await invoke(handler, withBearer(sample, secret));

    expect(res.status).toBe(401);
  });

  it('refuses a token sent in another scheme', async () => {
    const worker = await createTestWorker();
    const token = await workerToken(worker.id);

    const res = await invoke(handler, withHeaders(sample, { authorization: `Basic ${token}` }));

    expect(res.status).toBe(401);
  });

  it('tells the pro which required documents paused their offers (none while nothing has expired)', async () => {
    // Prepare
    const paused = await createTestWorker();
    const fine = await createTestWorker();
    await dynamo.send(
      new UpdateCommand({ TableName: tableName, Key: keys.worker(paused.id), UpdateExpression: 'ADD offersPausedFor :c', ExpressionAttributeValues: { ':c': new Set(['w9', 'government-id']) } }),
    );

    // Act
    const pausedSelf = await invoke(handler, withBearer(sample, await workerToken(paused.id)));
    const fineSelf = await invoke(handler, withBearer(sample, await workerToken(fine.id)));

    // Assess
    expect(pausedSelf.body.offersPausedFor).toEqual(['government-id', 'w9']);
    expect(fineSelf.body.offersPausedFor).toEqual([]);
  });
});
