import { describe, expect, it } from 'vitest';
import { handler as adminHandler } from './get-admin-document-download';
import { documentAccessLog } from './data/documents';
import { invoke, sampleEvent, withCookies, withHeaders, withPath } from '../testing/events';
import { confirmedDocument, confirmedWithTicket, fileBytes, postFile, workerWithToken } from '../testing/documents';
import { ownerTestSession } from '../testing/owner';

describe('GET /api/admin/documents/{id}/download', () => {
  it('lets the owner open any worker\'s document, logged with the owner', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);
    const owner = await ownerTestSession();
    const event = withHeaders(withCookies(withPath(sampleEvent('get-admin-document-download'), { id: doc.id }), [owner.cookie]), {});

    // Act
    const res = await invoke(adminHandler, event);

    // Assess
    expect(res.status).toBe(200);
    expect((await fetch(res.body.downloadUrl)).headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(await documentAccessLog.ofDocument(doc.id)).toEqual([
      expect.objectContaining({ userId: owner.ownerId, role: 'admin', accessType: 'download', success: true }),
    ]);
  });

  it('shows the owner the bytes that passed the checks, not what the worker posted with the same form after the confirm', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const checked = fileBytes.pdf(1500);
    const { document, ticket } = await confirmedWithTicket(token, checked);
    const swapped = await postFile(ticket, fileBytes.pdf(900), 'application/pdf');
    const owner = await ownerTestSession();

    // Act
    const res = await invoke(adminHandler, withCookies(withPath(sampleEvent('get-admin-document-download'), { id: document.id }), [owner.cookie]));

    // Assess
    expect(swapped.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await (await fetch(res.body.downloadUrl)).arrayBuffer())).toEqual(checked);
  });

  it('answers 404 for a deleted or unknown document', async () => {
    const owner = await ownerTestSession();

    const res = await invoke(adminHandler, withCookies(withPath(sampleEvent('get-admin-document-download'), { id: 'AAAAAAAAAAAAAAAAAAAAAA' }), [owner.cookie]));

    expect(res.status).toBe(404);
  });
});
