import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSubscription, startFakePushService, type FakePushService } from '../../functions/testing/fake-push-service';
import { startLocalStack, type LocalStack } from './stack';

/**
 * The owner's push as `npm start` runs it: the owner enables push with their session, a worker
 * applies, and the owner's browser is pushed "New worker application" (the application call
 * stores the owner's notification; the table's stream hands it to deliver-push).
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-owner-push-stack-'));
let stack: LocalStack;
let pushService: FakePushService;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, dataDir, web: false });
  pushService = await startFakePushService();
});

afterAll(async () => {
  await stack?.stop();
  await pushService?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const sampleApplication = JSON.parse(
  (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../events/submit-worker-application.json'), 'utf8')) as { body: string }).body,
) as Record<string, unknown>;

async function post(url: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${stack.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** One ID image, uploaded as the apply form uploads it (a presigned POST to the local S3). */
async function uploadedImage(): Promise<string> {
  const presigned = (await (await post('/api/upload', { type: 'worker-documents', contentType: 'image/png', size: PNG.length })).json()) as {
    url: string;
    key: string;
    fields: Record<string, string>;
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'id.png');
  const res = await fetch(presigned.url, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`upload answered ${res.status}`);
  return presigned.key;
}

async function until<T>(read: () => T | undefined, ms = 10_000): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("npm start: the owner's web push", () => {
  it("pushes 'New worker application' to the browser the owner enabled push on, opening the Applications tab", async () => {
    // Prepare: the owner is set up (their session cookie) and enables push in their browser.
    const setup = await post('/api/admin/setup', { setupCode: stack.ownerSetup!.code, username: 'owner', email: 'owner@example.com', password: 'owner-password-1', confirm: 'owner-password-1' });
    expect(setup.status).toBe(201);
    const cookie = setup.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const browser = browserSubscription(pushService);
    expect((await post('/api/push/subscribe', browser.json, cookie)).status).toBe(201);
    const [photoIdFrontUrl, photoIdBackUrl, selfieUrl] = await Promise.all([uploadedImage(), uploadedImage(), uploadedImage()]);

    // Act: a worker applies (no cookie: an applicant is nobody yet).
    const applied = await post('/api/worker-applications', {
      ...sampleApplication,
      fullName: 'Casey Morgan',
      emailAddress: `casey-${Date.now()}@example.com`,
      photoIdFrontUrl,
      photoIdBackUrl,
      selfieUrl,
    });
    const message = await until(() => pushService.received.find((m) => m.path === browser.path));

    // Assess
    expect(applied.status).toBe(201);
    expect(message, 'no push reached the owner').toBeDefined();
    expect(JSON.parse(browser.decrypt(message!.body))).toMatchObject({ title: 'New worker application', url: '/admin?tab=applications' });
    expect(JSON.parse(browser.decrypt(message!.body)).body).toContain('Casey Morgan');
  });
});
