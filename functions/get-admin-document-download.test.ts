import { describe, expect, it } from 'vitest';
import { handler as adminHandler } from './get-admin-document-download';
import { documentAccessLog } from './lib/data/documents';
import { invoke, sampleEvent, withCookies, withHeaders, withPath } from './lib/testing/events';
import { confirmedDocument, workerWithToken } from './lib/testing/documents';
import { ownerTestSession } from './lib/testing/owner';

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

  it('answers 404 for a deleted or unknown document', async () => {
    const owner = await ownerTestSession();

    const res = await invoke(adminHandler, withCookies(withPath(sampleEvent('get-admin-document-download'), { id: 'AAAAAAAAAAAAAAAAAAAAAA' }), [owner.cookie]));

    expect(res.status).toBe(404);
  });
});
