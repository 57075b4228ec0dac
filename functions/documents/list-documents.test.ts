import { describe, expect, it } from 'vitest';
import { handler } from './list-documents';
import { invoke } from '../testing/events';
import { asWorker, confirmedDocument, fileBytes, workerWithToken } from '../testing/documents';

const list = (token: string, query: Record<string, string> = {}) => invoke(handler, asWorker('list-documents', token, { query }));

describe('GET /api/documents', () => {
  it('lists only the worker\'s own current documents, newest first, latest versions only', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const other = await workerWithToken();
    await confirmedDocument(other.token);
    const w9 = await confirmedDocument(token, { categoryId: 'w9', filename: 'w9.pdf', expirationDate: undefined });
    const v1 = await confirmedDocument(token);
    const v2 = await confirmedDocument(token, { replacesDocumentId: v1.id });

    // Act
    const res = await list(token);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.documents.map((d: { id: string }) => d.id)).toEqual([v2.id, w9.id]);
  });

  it('filters by category, status and document type', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const w9 = await confirmedDocument(token, { categoryId: 'w9', filename: 'w9.pdf', expirationDate: undefined });
    const cert = await confirmedDocument(token, { categoryId: 'certifications', filename: 'c.png', contentType: 'image/png', expirationDate: undefined }, fileBytes.png());
    const insurance = await confirmedDocument(token);

    // Act
    const [byCategory, byStatus, byType, none] = await Promise.all([
      list(token, { categoryId: 'w9' }),
      list(token, { status: 'uploaded' }),
      list(token, { documentType: 'legal' }),
      list(token, { status: 'approved' }),
    ]);

    // Assess
    expect(byCategory.body.documents.map((d: { id: string }) => d.id)).toEqual([w9.id]);
    expect(byStatus.body.documents.map((d: { id: string }) => d.id)).toEqual([cert.id]);
    expect(byType.body.documents.map((d: { id: string }) => d.id)).toEqual([insurance.id]);
    expect(none.body.documents).toEqual([]);
  });

  it('refuses an unknown status or type with the accepted ones', async () => {
    const { token } = await workerWithToken();

    const res = await list(token, { status: 'lost' });

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ status: 'status must be one of uploaded, pending_review, approved, rejected, expired' });
  });

  it('refuses an applicant whose application is under review with 403: their account reaches only its status', async () => {
    const { token } = await workerWithToken({ status: 'pending_review' });

    const res = await list(token);

    expect(res).toMatchObject({ status: 403, body: { message: 'Your application is still under review.' } });
  });
});
