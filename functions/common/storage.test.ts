import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { deleteObject, objectExists, presignDownload, presignUpload } from './storage';

// The test setup points S3_ENDPOINT and UPLOADS_BUCKET at a local S3 (infra/local/s3.ts), which
// checks signatures, expiry and POST policies as S3 does.

const bytes = (size: number) => new Uint8Array(size).map((_, i) => i % 256);
const uniqueKey = (name: string) => `uploads/${randomUUID()}/${name}`;

/** What the browser does with a presigned POST: every field, then the file last. */
function upload(presigned: { url: string; fields: Record<string, string> }, file: Uint8Array<ArrayBuffer>, type: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
  form.append('file', new Blob([file], { type }), 'upload');
  return fetch(presigned.url, { method: 'POST', body: form });
}

describe('storage adapter', () => {
  it('presigns an upload the browser can post, then confirms and serves it through a presigned GET', async () => {
    // Prepare
    const key = uniqueKey('photo.png');
    const presigned = await presignUpload({ key, contentType: 'image/png', maxBytes: 1024 });

    // Act
    const posted = await upload(presigned, bytes(512), 'image/png');
    const exists = await objectExists(key);
    const download = await presignDownload(key);
    const fetched = await fetch(download.url);

    // Assess
    expect(posted.status).toBe(204);
    expect(exists).toBe(true);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(bytes(512));
  });

  it('answers the key and an expiry five minutes out by default', async () => {
    // Prepare
    const key = uniqueKey('doc.pdf');

    // Act
    const presigned = await presignUpload({ key, contentType: 'application/pdf', maxBytes: 1024 });

    // Assess
    expect(presigned.key).toBe(key);
    expect(presigned.fields).toMatchObject({ key, 'Content-Type': 'application/pdf' });
    expect(Date.parse(presigned.expiresAt) - Date.now()).toBeGreaterThan(290_000);
    expect(Date.parse(presigned.expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
  });

  it('bounds an upload to the presigned size, type and key', async () => {
    // Prepare
    const key = uniqueKey('photo.png');
    const presigned = await presignUpload({ key, contentType: 'image/png', maxBytes: 100 });

    // Act
    const tooBig = await upload(presigned, bytes(101), 'image/png');
    const wrongType = await upload({ ...presigned, fields: { ...presigned.fields, 'Content-Type': 'image/svg+xml' } }, bytes(10), 'image/svg+xml');
    const otherKey = await upload({ ...presigned, fields: { ...presigned.fields, key: uniqueKey('other.png') } }, bytes(10), 'image/png');

    // Assess
    expect(tooBig.status).toBe(400);
    expect(await tooBig.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(wrongType.status).toBe(403);
    expect(otherKey.status).toBe(403);
    expect(await objectExists(key)).toBe(false);
  });

  it('presigns downloads that stop working once they expire', async () => {
    // Prepare
    const key = uniqueKey('short.png');
    await upload(await presignUpload({ key, contentType: 'image/png', maxBytes: 100 }), bytes(10), 'image/png');
    const download = await presignDownload(key, 1);

    // Act
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const response = await fetch(download.url);

    // Assess
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
  });

  it('reports a missing object as absent and deletes one that is there', async () => {
    // Prepare
    const key = uniqueKey('gone.png');
    await upload(await presignUpload({ key, contentType: 'image/png', maxBytes: 100 }), bytes(10), 'image/png');

    // Act
    await deleteObject(key);

    // Assess
    expect(await objectExists(key)).toBe(false);
    expect(await objectExists(uniqueKey('never.png'))).toBe(false);
  });

  it('names UPLOADS_BUCKET when a function without it uses storage', async () => {
    // Prepare
    vi.resetModules();
    vi.stubEnv('UPLOADS_BUCKET', undefined);
    const unconfigured = await import('./storage');

    // Act
    const presigning = unconfigured.presignDownload('uploads/x.png');

    // Assess
    await expect(presigning).rejects.toThrow(/UPLOADS_BUCKET must name the uploads bucket/);
    vi.unstubAllEnvs();
  });
});
