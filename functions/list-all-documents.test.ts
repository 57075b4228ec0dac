import { describe, expect, it } from 'vitest';
import { handler as listAllDocuments } from './list-all-documents';
import { invoke, sampleEvent, withCookies, withPath } from './lib/testing/events';
import { confirmedDocument, workerWithToken } from './lib/testing/documents';
import { ownerSessionCookie } from './lib/testing/owner';

async function asOwner(name: string, parts: { params?: Record<string, string>; query?: Record<string, string> } = {}) {
  const event = withCookies(sampleEvent(name), [await ownerSessionCookie()]);
  return { ...(parts.params ? withPath(event, parts.params) : event), queryStringParameters: parts.query ?? {} };
}

describe('GET /api/admin/documents', () => {
  it('lists every worker\'s current documents, filtered by status and worker', async () => {
    // Prepare
    const a = await workerWithToken();
    const b = await workerWithToken();
    const docA = await confirmedDocument(a.token);
    const docB = await confirmedDocument(b.token, { categoryId: 'certifications', filename: 'c.pdf', expirationDate: undefined });

    // Act
    const [byWorker, pending, uploadedOfA] = await Promise.all([
      invoke(listAllDocuments, await asOwner('list-all-documents', { query: { workerId: b.worker.id } })),
      invoke(listAllDocuments, await asOwner('list-all-documents', { query: { status: 'pending_review' } })),
      invoke(listAllDocuments, await asOwner('list-all-documents', { query: { status: 'uploaded', workerId: a.worker.id } })),
    ]);

    // Assess
    expect(byWorker.body.documents.map((d: { id: string }) => d.id)).toEqual([docB.id]);
    expect(pending.body.documents.map((d: { id: string }) => d.id)).toContain(docA.id);
    expect(pending.body.documents.map((d: { id: string }) => d.id)).not.toContain(docB.id);
    expect(uploadedOfA.body.documents).toEqual([]);
  });
});
