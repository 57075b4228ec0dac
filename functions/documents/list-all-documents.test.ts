import { describe, expect, it } from 'vitest';
import { workerEntity } from '../../shared/entities';
import { CURSOR_MESSAGE } from '../../shared/schemas/page';
import { handler as listAllDocuments } from './list-all-documents';
import { invoke, sampleEvent, withCookies, withPath } from '../testing/events';
import { confirmedDocument, workerWithToken } from '../testing/documents';
import { ownerSessionCookie } from '../testing/owner';

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
    expect(byWorker.body.items.map((d: { id: string }) => d.id)).toEqual([docB.id]);
    expect(byWorker.body.workerNames).toEqual({ [b.worker.id]: b.worker.fullName });
    expect(pending.body.items.map((d: { id: string }) => d.id)).toContain(docA.id);
    expect(pending.body.items.map((d: { id: string }) => d.id)).not.toContain(docB.id);
    expect(pending.body.workerNames[a.worker.id]).toBe(a.worker.fullName);
    expect(uploadedOfA.body.items).toEqual([]);
  });

  it('answers a page at a time, newest first, and the next page from its cursor', async () => {
    // Prepare
    const { token, worker } = await workerWithToken();
    const older = await confirmedDocument(token, { categoryId: 'certifications', filename: 'older.pdf', expirationDate: undefined });
    const newer = await confirmedDocument(token, { categoryId: 'other', filename: 'newer.pdf', expirationDate: undefined });

    // Act
    const first = await invoke(listAllDocuments, await asOwner('list-all-documents', { query: { workerId: worker.id, limit: '1' } }));
    const second = await invoke(listAllDocuments, await asOwner('list-all-documents', { query: { workerId: worker.id, limit: '1', cursor: first.body.nextCursor } }));

    // Assess
    expect(first.status).toBe(200);
    expect(first.body.items.map((d: { id: string }) => d.id)).toEqual([newer.id]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(second.body.items.map((d: { id: string }) => d.id)).toEqual([older.id]);
  });

  it('refuses a cursor that is not one of its own pages', async () => {
    // Prepare
    // (The workers' list has as many shards; its keys lie outside the documents' sort keys.)
    const workersPage = Buffer.from(JSON.stringify(workerEntity.indexes.all.ranges().map(() => ['WORKER#x', 'PROFILE', 'WORKER#2026']))).toString('base64url');
    const singleKey = Buffer.from(JSON.stringify({ pk: 'WORKER#x', sk: 'PROFILE', ...workerEntity.indexes.all.keyFor(workerEntity.key('x'), '2026') })).toString('base64url');

    // Act
    const answers = await Promise.all(
      [workersPage, singleKey].map(async (cursor) => invoke(listAllDocuments, await asOwner('list-all-documents', { query: { cursor } }))),
    );

    // Assess
    expect(answers.map((res) => res.status)).toEqual([400, 400]);
    expect(answers[0]!.body).toMatchObject({ message: CURSOR_MESSAGE });
  });
});
