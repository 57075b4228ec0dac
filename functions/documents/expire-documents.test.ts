import { describe, expect, it } from 'vitest';
import { documentEntity } from '../../shared/entities';
import { handler } from './expire-documents';
import { dispatchIndex, isDispatchable } from '../jobs/data/dispatch-index';
import { documentsRepo } from './data/documents';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { sampleEvent } from '../testing/events';
import { inDays, storedDocument, workerWithToken } from '../testing/documents';
import { mailRepo } from '../mail/data/mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { handler as sendMail } from '../mail/send-mail';
import { paths } from '../../web/src/lib/paths';

const run = () => handler(sampleEvent('expire-documents'));
const notesOf = async (workerId: string) => (await notificationsRepo.latest('worker', workerId)).map((n) => n.type);

/** An active plumber who is available, clocked in and in the dispatch index. */
async function dispatchableWorker() {
  const { worker } = await workerWithToken({ isAvailable: true, isClockedIn: true, categories: ['plumbing'] });
  await dispatchIndex.sync(worker);
  return worker;
}

describe('expire-documents (daily)', () => {
  it('reminds the worker 30 days before, once', async () => {
    // Prepare
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(20) });

    // Act
    await run();
    await run();

    // Assess
    expect(await notesOf(worker.id)).toEqual(['document_expiring']);
    const stored = await documentsRepo.findById(doc.id);
    expect(stored?.reminded30At).toEqual(expect.any(String));
    expect(stored?.reminded7At).toBeUndefined();
    expect(stored?.status).toBe('approved');
  });

  it('reminds 7 days before, once, without a late 30-day reminder as well', async () => {
    // Prepare
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(5) });

    // Act
    await run();
    await run();

    // Assess
    const notes = await notificationsRepo.latest('worker', worker.id);
    expect(notes.map((n) => [n.type, n.priority])).toEqual([['document_expiring', 'high']]);
    expect(notes[0]?.message).toContain(inDays(5));
    expect(await documentsRepo.findById(doc.id)).toMatchObject({ reminded7At: expect.any(String), reminded30At: expect.any(String) });
  });

  it('sends the 7-day reminder to a document already reminded at 30 days', async () => {
    const { worker } = await workerWithToken();
    await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(6), reminded30At: new Date().toISOString() });

    await run();

    expect(await notesOf(worker.id)).toEqual(['document_expiring']);
  });

  it('leaves documents expiring later than 30 days alone', async () => {
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(31) });

    await run();

    expect(await notesOf(worker.id)).toEqual([]);
    expect((await documentsRepo.findById(doc.id))?.reminded30At).toBeUndefined();
  });

  it('marks a required document past its date expired and pauses the worker\'s offers; run twice, nothing changes twice', async () => {
    // Prepare
    const worker = await dispatchableWorker();
    const doc = await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(-1) });

    // Act
    await run();
    const afterFirst = await workersRepo.findById(worker.id);
    await run();

    // Assess
    const stored = await documentsRepo.findById(doc.id);
    expect(stored).toMatchObject({ status: 'expired', expiredAt: expect.any(String) });
    expect(documentEntity.indexes.expiry.keysOf(stored!)).toBeUndefined();
    const after = await workersRepo.findById(worker.id);
    expect(after?.offersPausedFor).toEqual(new Set(['liability-insurance']));
    expect(after?.updatedAt).toBe(afterFirst?.updatedAt);
    expect(isDispatchable(after!)).toBe(false);
    expect((await dispatchIndex.listAvailable(['plumbing'], 10_000)).map((c) => c.workerId)).not.toContain(worker.id);
    const notes = await notificationsRepo.latest('worker', worker.id);
    expect(notes.map((n) => [n.type, n.priority])).toEqual([['document_expired', 'critical']]);
    expect(notes[0]?.message).toContain('You will not receive job offers until a current one is uploaded and approved.');
  });

  it('does not pause a worker who holds another approved, unexpired document of the category', async () => {
    // Prepare
    const worker = await dispatchableWorker();
    const old = await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(-1), isLatestVersion: false });
    await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(300) });

    // Act
    await run();

    // Assess
    expect((await documentsRepo.findById(old.id))?.status).toBe('expired');
    const after = await workersRepo.findById(worker.id);
    expect(after?.offersPausedFor).toBeUndefined();
    expect(isDispatchable(after!)).toBe(true);
  });

  it('pauses a worker whose approved document expired while its replacement still waits for review', async () => {
    const worker = await dispatchableWorker();
    await storedDocument(worker.id, { categoryId: 'workers-comp', expirationDate: inDays(-1), isLatestVersion: false });
    await storedDocument(worker.id, { categoryId: 'workers-comp', status: 'pending_review', expirationDate: inDays(365) });

    await run();

    expect((await workersRepo.findById(worker.id))?.offersPausedFor).toEqual(new Set(['workers-comp']));
  });

  it('expires an optional document without pausing anything', async () => {
    const worker = await dispatchableWorker();
    const doc = await storedDocument(worker.id, { categoryId: 'certifications', status: 'uploaded', expirationDate: inDays(-1) });

    await run();

    expect((await documentsRepo.findById(doc.id))?.status).toBe('expired');
    expect((await workersRepo.findById(worker.id))?.offersPausedFor).toBeUndefined();
    expect(await notesOf(worker.id)).toEqual(['document_expired']);
  });

  it('does not pause a cleaner over a trade license, which their trade does not need', async () => {
    const { worker } = await workerWithToken({ categories: ['cleaning'] });
    await storedDocument(worker.id, { categoryId: 'trade-license', expirationDate: inDays(-1) });

    await run();

    expect((await workersRepo.findById(worker.id))?.offersPausedFor).toBeUndefined();
  });

  it('never pauses a worker who has uploaded nothing', async () => {
    const worker = await dispatchableWorker();

    await run();

    expect(isDispatchable((await workersRepo.findById(worker.id))!)).toBe(true);
  });

  it('notifies once when two runs overlap', async () => {
    const { worker } = await workerWithToken();
    await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(-2) });
    await storedDocument(worker.id, { categoryId: 'w9', expirationDate: inDays(15) });

    await Promise.all([run(), run()]);

    expect((await notesOf(worker.id)).sort()).toEqual(['document_expired', 'document_expiring']);
  });
});

describe('expire-documents (daily): the reminder mails', () => {
  it('mails the pro once for the 30-day reminder, to their account address, with the link to their dashboard, run twice and delivered twice', async () => {
    // Prepare
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'liability-insurance', expirationDate: inDays(20) });

    // Act
    await run();
    await run();
    const record = await outboxRecord('document-expiring', `${doc.id}:30`);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(worker.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your ${doc.categoryName} expires in 20 days`);
    expect(mails[0]!.text).toContain(`Hi ${worker.fullName},`);
    expect(mails[0]!.text).toContain(`expires on ${inDays(20)}, in 20 days.`);
    expect(mails[0]!.text).toContain(`Upload a current document: http://localhost:3000${paths.workerDashboard}`);
    expect(await mailRepo.find('document-expiring', `${doc.id}:7`)).toBeUndefined();
  });

  it('mails the 7-day reminder as a second mail of its own to a document already reminded at 30 days', async () => {
    // Prepare
    const { worker } = await workerWithToken();
    const doc = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(6), reminded30At: new Date().toISOString() });

    // Act
    await run();
    await run();
    await sendMail({ Records: [await outboxRecord('document-expiring', `${doc.id}:7`)] });

    // Assess
    const mails = await mailsTo(worker.email);
    expect(mails.map((m) => m.subject)).toEqual([`Your ${doc.categoryName} expires in 6 days`]);
    expect(await mailRepo.find('document-expiring', `${doc.id}:30`)).toBeUndefined();
  });

  it('mails nothing for a document not yet due a reminder, or one replaced by a newer version', async () => {
    const { worker } = await workerWithToken();
    const later = await storedDocument(worker.id, { categoryId: 'government-id', expirationDate: inDays(31) });
    const replaced = await storedDocument(worker.id, { categoryId: 'workers-comp', expirationDate: inDays(10), isLatestVersion: false });

    await run();

    expect(await mailRepo.find('document-expiring', `${later.id}:30`)).toBeUndefined();
    expect(await mailRepo.find('document-expiring', `${replaced.id}:30`)).toBeUndefined();
  });
});
