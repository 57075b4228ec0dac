import { describe, expect, it } from 'vitest';
import { uploadKeyPattern } from '../../shared/schemas/applications';
import { handler } from './create-upload';
import { invoke, sampleEvent, withBody } from '../testing/events';

const sample = sampleEvent('create-upload');
const validBody = JSON.parse(sample.body!) as Record<string, unknown>;

function postForm(url: string, fields: Record<string, string>, bytes: string, contentType: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: contentType }), 'file');
  return fetch(url, { method: 'POST', body: form });
}

describe('POST /api/upload', () => {
  it('hands out a presigned POST for a fresh key of the right folder and extension, valid 5 minutes', async () => {
    // Act
    const before = Date.now();
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^uploads\/worker-documents\/[A-Za-z0-9_-]{22}\.jpg$/);
    expect(res.body.key).toMatch(uploadKeyPattern);
    expect(res.body.maxBytes).toBe(10 * 1024 * 1024);
    expect(res.body.fields['Content-Type']).toBe('image/jpeg');
    expect(res.body.fields.key).toBe(res.body.key);
    const expiresIn = Date.parse(res.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(290_000);
    expect(expiresIn).toBeLessThanOrEqual(301_000);
  });

  it('gives every request its own key', async () => {
    const [a, b] = await Promise.all([invoke(handler, sample), invoke(handler, sample)]);

    expect(a.body.key).not.toBe(b.body.key);
  });

  it.each([
    ['company-documents', 'application/pdf', /^uploads\/company-documents\/[A-Za-z0-9_-]{22}\.pdf$/],
    ['company-documents', 'image/png', /^uploads\/company-documents\/[A-Za-z0-9_-]{22}\.png$/],
    ['profile-photos', 'image/png', /^uploads\/profile-photos\/[A-Za-z0-9_-]{22}\.png$/],
  ])('names a %s %s upload by its type', async (type, contentType, pattern) => {
    const res = await invoke(handler, withBody(sample, { type, contentType, size: 2048 }));

    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(pattern);
  });

  it('lets the browser upload the file straight to the bucket with the form it got', async () => {
    // Prepare
    const { body } = await invoke(handler, sample);

    // Act
    const res = await postForm(body.url, body.fields, 'jpeg bytes', 'image/jpeg');

    // Assess
    expect(res.status).toBeLessThan(300);
  });

  it('binds the form to its content type: the bucket refuses another type', async () => {
    const { body } = await invoke(handler, sample);

    const res = await postForm(body.url, { ...body.fields, 'Content-Type': 'application/x-msdownload' }, 'MZ', 'application/x-msdownload');

    expect(res.status).toBe(403);
  });

  it('refuses an .exe content type', async () => {
    const res = await invoke(handler, withBody(sample, { ...validBody, contentType: 'application/x-msdownload' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ contentType: 'This file type is not accepted here' });
  });

  it('refuses a PDF as a worker identity document', async () => {
    const res = await invoke(handler, withBody(sample, { ...validBody, contentType: 'application/pdf' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ contentType: 'This file type is not accepted here' });
  });

  it('refuses an 11 MB file', async () => {
    const res = await invoke(handler, withBody(sample, { ...validBody, size: 11 * 1024 * 1024 }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ size: 'Files must be at most 10 MB' });
  });

  it('refuses an empty file and an unknown type', async () => {
    const empty = await invoke(handler, withBody(sample, { ...validBody, size: 0 }));
    const unknown = await invoke(handler, withBody(sample, { ...validBody, type: 'scripts' }));

    expect(empty.body.fields).toEqual({ size: 'The file is empty' });
    expect(unknown.body.fields.type).toBe('type must be worker-documents, company-documents or profile-photos');
  });
});
