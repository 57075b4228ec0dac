import { describe, expect, it } from 'vitest';
import type { NotificationView } from '../../shared/realtime';
import { handler as applyWorker } from '../applications/apply-worker';
import { handler as confirmUpload } from '../documents/confirm-document-upload';
import { handler as stripeWebhook } from '../payments/handle-stripe-webhook';
import { handler as submitWorkerApplication } from '../applications/submit-worker-application';
import { notificationsRepo } from '../realtime/data/notifications';
import { offerNext } from '../jobs/dispatch';
import { newId } from '../common/ids';
import { ownerConsoleUrl } from './owner-events';
import { OWNER_PUSH_ID } from '../realtime/push-caller';
import { pendingCompanyApplication, pendingApplication, uploadFile, freshEmail } from '../testing/applications';
import { testCategory, testJob, testPlace } from '../testing/dispatch';
import { asWorker, confirmedDocument, uploadDocument, workerWithToken } from '../testing/documents';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { invoicedJob } from '../testing/money';
import { completedSession, signedStripeEvent } from '../testing/stripe';

/**
 * The calls that tell the owner, each told once: the notification follows the conditional write
 * that made the change, so a retry, a repeated confirm or a webhook delivered twice adds nothing.
 */

/** The owner's notifications of one kind (other test files tell the owner too, so narrowed by `about`). */
async function ownersNotifications(title: string, about: (n: NotificationView) => boolean): Promise<NotificationView[]> {
  return (await notificationsRepo.latest('owner', OWNER_PUSH_ID)).filter((n) => n.title === title && about(n));
}

describe('what tells the owner', () => {
  it('a worker application leaves one owner notification, and its retry (the email taken) none more', async () => {
    // Prepare
    const fullName = `Applicant ${newId()}`;
    const { body } = await pendingApplication({ fullName });

    // Act
    const retry = await invoke(submitWorkerApplication, withBody(sampleEvent('submit-worker-application'), { ...body, photoIdFrontUrl: await uploadFile(), photoIdBackUrl: await uploadFile(), selfieUrl: await uploadFile() }));

    // Assess
    expect(retry.status).toBe(409);
    const told = await ownersNotifications('New worker application', (n) => n.message.includes(fullName));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ actionUrl: ownerConsoleUrl.applications, priority: 'high' });
    // Only what the console shows: never the applicant's contact details.
    expect(told[0]!.message).not.toContain(body.emailAddress);
    expect(told[0]!.message).not.toContain(body.phoneNumber);
  });

  it('the shorter apply form tells the owner too', async () => {
    // Prepare
    const sample = sampleEvent('apply-worker');
    const fullName = `Short Form ${newId()}`;
    const [idFrontPhoto, idBackPhoto, selfie] = await Promise.all([uploadFile(), uploadFile(), uploadFile()]);
    const body = { ...(JSON.parse(sample.body!) as Record<string, unknown>), fullName, email: freshEmail(), idFrontPhoto, idBackPhoto, selfie };

    // Act
    const res = await invoke(applyWorker, withBody(sample, body));

    // Assess
    expect(res.status).toBe(201);
    expect(await ownersNotifications('New worker application', (n) => n.message.includes(fullName))).toHaveLength(1);
  });

  it('a company application leaves one owner notification', async () => {
    // Prepare
    const companyName = `Company ${newId()}`;

    // Act
    await pendingCompanyApplication({ companyName });

    // Assess
    expect(await ownersNotifications('New company application', (n) => n.message.includes(companyName))).toHaveLength(1);
  });

  it('a required document awaiting review tells the owner once, however often its upload is confirmed; an optional one not at all', async () => {
    // Prepare
    const fullName = `Uploader ${newId()}`;
    const { token } = await workerWithToken({ fullName });

    // Act
    const first = await uploadDocument(token);
    // The document is named by its upload: confirming that upload again answers the same document.
    const again = await invoke(confirmUpload, asWorker('confirm-document-upload', token, { params: { uploadId: first.body.document.id } }));
    await confirmedDocument(token, { categoryId: 'certifications', filename: 'cert.pdf', expirationDate: undefined });

    // Assess
    expect(first.body.document.status).toBe('pending_review');
    expect(again.body.document.id).toBe(first.body.document.id);
    const told = await ownersNotifications('Document awaiting review', (n) => n.message.includes(fullName));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ actionUrl: ownerConsoleUrl.documents });
    expect(told[0]!.message).toContain(first.body.document.categoryName);
  });

  it('a job whose search ended with nobody tells the owner once, however often dispatch runs again', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());

    // Act
    await offerNext(job.id);
    await offerNext(job.id);

    // Assess
    const told = await ownersNotifications('Job with no pro', (n) => n.jobId === job.id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ actionUrl: `/admin/jobs/${job.id}` });
  });

  it('a failed payment delivered twice by Stripe, as the same event or a new one, leaves one owner notification', async () => {
    // Prepare
    const { invoice } = await invoicedJob({ verified: true });
    const bank = completedSession(invoice, { payment_status: 'unpaid' });
    await invoke(stripeWebhook, signedStripeEvent('checkout.session.completed', bank));
    const failed = signedStripeEvent('checkout.session.async_payment_failed', bank, { id: `evt_${newId()}` });

    // Act
    const results = [await invoke(stripeWebhook, failed), await invoke(stripeWebhook, failed), await invoke(stripeWebhook, signedStripeEvent('checkout.session.async_payment_failed', bank))];

    // Assess
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const told = await ownersNotifications('Payment failed', (n) => n.jobId === invoice.jobId);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ actionUrl: `/admin/jobs/${invoice.jobId}` });
    expect(told[0]!.message).toContain(`#${invoice.id.slice(-8).toUpperCase()}`);
  });
});
