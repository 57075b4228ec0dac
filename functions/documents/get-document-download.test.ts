import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from './get-document-download';
import { documentAccessLog } from './data/documents';
import { invoke } from '../testing/events';
import { asWorker, confirmedDocument, confirmedWithTicket, fileBytes, postFile, workerWithToken } from '../testing/documents';

afterEach(() => vi.restoreAllMocks());

const download = (token: string, id: string, mode?: string) =>
  invoke(handler, asWorker('get-document-download', token, { params: { id }, query: mode ? { mode } : {} }));

describe('GET /api/documents/{id}/download', () => {
  it('hands the worker a presigned GET of their document, valid 5 minutes, inline under its own name', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const bytes = fileBytes.pdf(1000);
    const doc = await confirmedDocument(token, { filename: 'Liability – 2027.pdf' }, bytes);

    // Act
    const before = Date.now();
    const res = await download(token, doc.id, 'view');

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['downloadUrl', 'expiresAt', 'filename']);
    expect(res.body.filename).toBe('Liability – 2027.pdf');
    const expiresIn = Date.parse(res.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(290_000);
    expect(expiresIn).toBeLessThanOrEqual(301_000);
    const file = await fetch(res.body.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="Liability _ 2027.pdf"; filename*=UTF-8''Liability%20%E2%80%93%202027.pdf`);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it('serves the bytes that passed the checks after the same presigned form posted other bytes', async () => {
    // Prepare: a real PDF confirmed, then an HTML page posted with the form, still valid
    const { token } = await workerWithToken();
    const checked = fileBytes.pdf(1500);
    const { document, ticket } = await confirmedWithTicket(token, checked);
    const swapped = await postFile(ticket, fileBytes.html(), 'application/pdf');

    // Act
    const res = await download(token, document.id, 'download');

    // Assess
    expect(swapped.ok).toBe(true);
    expect(res.status).toBe(200);
    const file = await fetch(res.body.downloadUrl);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(checked);
  });

  it('makes it an attachment for a download', async () => {
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    const res = await download(token, doc.id, 'download');

    const file = await fetch(res.body.downloadUrl);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="liability-certificate.pdf"/);
  });

  it('writes an access-log row for every view and download: who, role, how, address, agent, success, when', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    // Act
    await download(token, doc.id, 'view');
    await download(token, doc.id, 'download');

    // Assess
    const rows = await documentAccessLog.ofDocument(doc.id);
    expect(rows.map(({ documentId, userId, role, accessType, ipAddress, userAgent, success }) => ({ documentId, userId, role, accessType, ipAddress, userAgent, success }))).toEqual([
      { documentId: doc.id, userId: worker.id, role: 'worker', accessType: 'view', ipAddress: '127.0.0.1', userAgent: 'sample-event', success: true },
      { documentId: doc.id, userId: worker.id, role: 'worker', accessType: 'download', ipAddress: '127.0.0.1', userAgent: 'sample-event', success: true },
    ]);
    expect(rows.every((r) => !Number.isNaN(Date.parse(r.at)))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('X-Amz-Signature');
  });

  it('answers 404 for another worker\'s document, and logs the refused attempt against it', async () => {
    // Prepare
    const owner = await workerWithToken();
    const doc = await confirmedDocument(owner.token);
    const intruder = await workerWithToken();

    // Act
    const res = await download(intruder.token, doc.id, 'download');

    // Assess
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NotFoundError', message: 'No such document.' });
    const rows = await documentAccessLog.ofDocument(doc.id);
    expect(rows).toEqual([expect.objectContaining({ userId: intruder.worker.id, accessType: 'download', success: false })]);
  });

  it('answers 404 for an unknown id and 400 for an unknown mode', async () => {
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    expect((await download(token, 'AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    const bad = await download(token, doc.id, 'print');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ mode: 'mode must be view or download' });
  });

  it('never logs the URL or the token', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});

    // Act
    const res = await download(token, doc.id);

    // Assess
    const text = JSON.stringify(log.mock.calls);
    expect(text).not.toContain(res.body.downloadUrl);
    expect(text).not.toContain('X-Amz-Signature');
    expect(text).not.toContain(token);
  });
});
