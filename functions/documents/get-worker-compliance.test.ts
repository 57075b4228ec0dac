import { describe, expect, it } from 'vitest';
import { handler } from './get-worker-compliance';
import { invoke, sampleEvent, withCookies, withPath } from '../testing/events';
import { confirmedDocument, inDays, storedDocument, workerWithToken } from '../testing/documents';
import { ownerSessionCookie } from '../testing/owner';

async function asOwner(name: string, parts: { params?: Record<string, string>; query?: Record<string, string> } = {}) {
  const event = withCookies(sampleEvent(name), [await ownerSessionCookie()]);
  return { ...(parts.params ? withPath(event, parts.params) : event), queryStringParameters: parts.query ?? {} };
}

describe('GET /api/admin/workers/{id}/documents', () => {
  it('shows the owner a worker\'s current documents, the required ones missing, those expiring and whether offers are paused', async () => {
    // Prepare: a plumber with an ID expiring in 10 days, a liability certificate and a W-9
    const { worker, token } = await workerWithToken({ fullName: 'Pat Plumber', categories: ['plumbing'] });
    const id = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(10) });
    await confirmedDocument(token);
    await confirmedDocument(token, { categoryId: 'w9', filename: 'w9.pdf', expirationDate: undefined });
    await storedDocument(worker.id, { categoryId: 'workers-comp', status: 'rejected', expirationDate: inDays(100) });

    // Act
    const res = await invoke(handler, await asOwner('get-worker-compliance', { params: { id: worker.id } }));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.worker).toEqual({ id: worker.id, fullName: 'Pat Plumber' });
    expect(res.body.documents).toHaveLength(4);
    expect(res.body.missingRequired.map((c: { id: string }) => c.id)).toEqual(['trade-license', 'background-check-consent', 'workers-comp']);
    expect(res.body.expiring.map((d: { id: string }) => d.id)).toEqual([id.id]);
    expect(res.body.offersPaused).toBe(false);
  });

  it('does not ask a cleaner for a trade license', async () => {
    const { worker } = await workerWithToken({ categories: ['cleaning'] });

    const res = await invoke(handler, await asOwner('get-worker-compliance', { params: { id: worker.id } }));

    expect(res.body.missingRequired.map((c: { id: string }) => c.id)).not.toContain('trade-license');
    expect(res.body.missingRequired).toHaveLength(5);
  });

  it('answers 404 for an unknown worker', async () => {
    const res = await invoke(handler, await asOwner('get-worker-compliance', { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } }));

    expect(res.status).toBe(404);
  });
});
