import { describe, expect, it } from 'vitest';
import { documentEntity } from '../../shared/entities';
import { handler } from './review-document';
import { documentsRepo } from './data/documents';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { isDispatchable } from '../jobs/data/dispatch-index';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { confirmedDocument, inDays, storedDocument, workerWithToken } from '../testing/documents';
import { ownerSessionCookie } from '../testing/owner';

async function review(id: string, body: Record<string, unknown>) {
  return invoke(handler, withBody(withCookies(withPath(sampleEvent('review-document'), { id }), [await ownerSessionCookie()]), body));
}

describe('POST /api/admin/documents/{id}/review', () => {
  it('approves a document waiting for review and tells the worker', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    // Act
    const res = await review(doc.id, { decision: 'approve' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.document).toMatchObject({ id: doc.id, status: 'approved', reviewNotes: null, reviewedAt: expect.any(String) });
    const [note] = await notificationsRepo.latest('worker', worker.id);
    expect(note).toMatchObject({ type: 'document_approved', title: 'Document approved', message: 'Your General liability insurance certificate was approved.' });
  });

  it('rejects with notes, which the worker sees in the notification and on the document', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    // Act
    const res = await review(doc.id, { decision: 'reject', notes: 'The policy period is not visible.' });

    // Assess
    expect(res.body.document).toMatchObject({ status: 'rejected', reviewNotes: 'The policy period is not visible.' });
    const [note] = await notificationsRepo.latest('worker', worker.id);
    expect(note?.message).toContain('The policy period is not visible.');
    expect(documentEntity.indexes.expiry.keysOf((await documentsRepo.findById(doc.id))!)).toBeUndefined();
  });

  it('needs notes to reject, and changes nothing without them', async () => {
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    const res = await review(doc.id, { decision: 'reject', notes: '  ' });

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ notes: 'Notes are required to reject a document' });
    expect((await documentsRepo.findById(doc.id))?.status).toBe('pending_review');
  });

  it('lets one of two decisions win: the second gets 409', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    // Act
    const [a, b] = await Promise.all([review(doc.id, { decision: 'approve' }), review(doc.id, { decision: 'reject', notes: 'Blurry' })]);

    // Assess
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it('refuses an older version: the newer one is the one to review', async () => {
    const { token } = await workerWithToken();
    const v1 = await confirmedDocument(token);
    await confirmedDocument(token, { replacesDocumentId: v1.id });

    const res = await review(v1.id, { decision: 'approve' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A newer version of this document was uploaded: review that one.');
  });

  it('answers 404 for an unknown document', async () => {
    const res = await review('AAAAAAAAAAAAAAAAAAAAAA', { decision: 'approve' });

    expect(res.status).toBe(404);
  });

  it('lifts the pause on offers when a valid document of the paused category is approved', async () => {
    // Prepare: a worker paused because their liability certificate expired
    const { worker, token } = await workerWithToken({ isAvailable: true, isClockedIn: true, offersPausedFor: new Set(['liability-insurance']) });
    await storedDocument(worker.id, { categoryId: 'liability-insurance', status: 'expired', expirationDate: inDays(-2) });
    expect(isDispatchable((await workersRepo.findById(worker.id))!)).toBe(false);
    const renewed = await confirmedDocument(token, { expirationDate: inDays(365) });

    // Act
    const res = await review(renewed.id, { decision: 'approve' });

    // Assess
    expect(res.status).toBe(200);
    const after = await workersRepo.findById(worker.id);
    expect(after?.offersPausedFor).toBeUndefined();
    expect(isDispatchable(after!)).toBe(true);
  });

  it('keeps the pause when the approved document is of another category', async () => {
    const { worker, token } = await workerWithToken({ offersPausedFor: new Set(['liability-insurance']) });
    const w9 = await confirmedDocument(token, { categoryId: 'w9', filename: 'w9.pdf', expirationDate: undefined });

    await review(w9.id, { decision: 'approve' });

    expect((await workersRepo.findById(worker.id))?.offersPausedFor).toEqual(new Set(['liability-insurance']));
  });

  it('refuses to approve a document past its expiration date, but lets the owner reject it', async () => {
    // Prepare
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'government-id', status: 'pending_review', expirationDate: inDays(-1) });

    // Act
    const approve = await review(doc.id, { decision: 'approve' });
    const reject = await review(doc.id, { decision: 'reject', notes: 'Expired before review.' });

    // Assess
    expect(approve.status).toBe(409);
    expect(approve.body.message).toBe('This document has expired: the worker needs to upload a current one.');
    expect(reject.status).toBe(200);
  });

  it('approves a document without an expiration date', async () => {
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'w9', status: 'pending_review', expirationDate: null });

    const res = await review(doc.id, { decision: 'approve' });

    expect(res.status).toBe(200);
  });
});
