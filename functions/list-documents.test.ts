import { describe, expect, it } from 'vitest';
import { handler } from './list-documents';
import { handler as listExpiring } from './list-expiring-documents';
import { handler as listCategories } from './list-document-categories';
import { invoke, sampleEvent } from './lib/testing/events';
import { asWorker, confirmedDocument, fileBytes, inDays, storedDocument, workerWithToken } from './lib/testing/documents';

const list = (token: string, query: Record<string, string> = {}) => invoke(handler, asWorker('list-documents', token, { query }));
const expiring = (token: string, days: string) => invoke(listExpiring, asWorker('list-expiring-documents', token, { params: { days } }));

describe('GET /api/documents/categories', () => {
  it('lists the compliance categories in display order with their rules, to anyone', async () => {
    // Act
    const res = await invoke(listCategories, sampleEvent('list-document-categories'));

    // Assess
    expect(res.status).toBe(200);
    const categories = res.body.categories as { id: string; displayOrder: number; isRequired: boolean; allowedFormats: string[]; maxFileSizeMB: number }[];
    expect(categories.map((c) => c.id)).toEqual([
      'government-id',
      'trade-license',
      'liability-insurance',
      'w9',
      'background-check-consent',
      'workers-comp',
      'certifications',
      'other',
    ]);
    expect(categories.map((c) => c.displayOrder)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(categories[0]).toEqual({
      id: 'government-id',
      name: 'Government-issued photo ID',
      description: expect.any(String),
      documentType: 'legal',
      userType: 'worker',
      isRequired: true,
      expirationRequired: true,
      maxFileSizeMB: 10,
      allowedFormats: ['pdf', 'jpg', 'jpeg', 'png'],
      displayOrder: 1,
    });
    expect(categories.find((c) => c.id === 'w9')).toMatchObject({ documentType: 'tax', isRequired: true, expirationRequired: false });
    expect(categories.find((c) => c.id === 'certifications')).toMatchObject({ documentType: 'general', isRequired: false, allowedFormats: ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'] });
    expect(categories.find((c) => c.id === 'other')?.allowedFormats).toContain('txt');
  });
});

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

  it('lets a worker whose application is pending see an empty list', async () => {
    const { token } = await workerWithToken({ status: 'pending_review' });

    const res = await list(token);

    expect(res.status).toBe(200);
    expect(res.body.documents).toEqual([]);
  });
});

describe('GET /api/documents/expiring/{days}', () => {
  it('lists the documents expiring within the days asked, soonest first, flagged as expiring soon', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const soon = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(5) });
    const later = await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(25) });
    await storedDocument(worker.id, { categoryId: 'workers-comp', expirationDate: inDays(90) });
    await storedDocument(worker.id, { categoryId: 'trade-license', expirationDate: inDays(-3) });
    await storedDocument(worker.id, { categoryId: 'w9', expirationDate: null });

    // Act
    const res = await expiring(token, '30');

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.documents.map((d: { id: string }) => d.id)).toEqual([soon.id, later.id]);
    expect(res.body.documents.every((d: { expiringSoon: boolean }) => d.expiringSoon)).toBe(true);
  });

  it.each(['0', '366', 'abc', '-1', '1.5'])('refuses %s days', async (days) => {
    const { token } = await workerWithToken();

    const res = await expiring(token, days);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ days: 'days must be a whole number from 1 to 365' });
  });
});
