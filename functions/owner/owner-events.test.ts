import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import type { NotificationView } from '../../shared/realtime';
import { keys } from '../../shared/entities';
import { deliverPush } from '../realtime/deliver-push';
import { dynamo, tableName } from '../common/clients';
import { connectionsRepo } from '../realtime/data/connections';
import { notificationsRepo } from '../realtime/data/notifications';
import { newId } from '../common/ids';
import {
  documentAwaitingReview,
  jobWithNoPro,
  newCompanyApplication,
  newWorkerApplication,
  ownerConsoleUrl,
  paymentFailed,
  strikeAppealed,
  strikeRecorded,
} from './owner-events';
import { pushSubscriptionsRepo } from '../realtime/data/push-subscriptions';
import { OWNER_PUSH_ID } from '../realtime/push-caller';
import { browserSubscription, startFakePushService } from '../testing/fake-push-service';
import { framesOf, openTestConnection } from '../testing/sockets';
import { handler as sendMail } from '../mail/send-mail';
import { handler as confirmUpload } from '../documents/confirm-document-upload';
import { paths } from '../../web/src/lib/paths';
import { mailRepo } from '../mail/data/mail';
import { ownerDailySummary, ownerDocumentsWaiting, ownerNewApplication } from '../mail/messages/owner';
import { pendingApplication, pendingCompanyApplication } from '../testing/applications';
import { asWorker, confirmedWithTicket, workerWithToken } from '../testing/documents';
import { invoke } from '../testing/events';
import { mailsTo, outboxRecord } from '../testing/mail';
import { ownerMailbox } from '../testing/owner-mail';

const pushService = await startFakePushService();
afterAll(() => pushService.close());

/** The owner's stored notifications whose message names `marker` (other test files tell the owner too). */
async function ownersAbout(marker: string): Promise<NotificationView[]> {
  return (await notificationsRepo.latest('owner', OWNER_PUSH_ID)).filter((n) => n.message.includes(marker));
}

describe('owner events', () => {
  it('stores each event as one high-priority notification for the owner, linking to the console tab where it is handled', async () => {
    // Prepare
    const marker = `Marker ${newId()}`;
    const jobId = newId();

    // Act
    await newWorkerApplication({ id: newId(), fullName: `${marker} Worker`, servicesProvided: ['plumbing'] });
    await newCompanyApplication({ id: newId(), companyName: `${marker} Company` });
    await documentAwaitingReview({ id: newId(), categoryName: 'Form W-9', workerName: `${marker} Uploader` });
    await jobWithNoPro({ id: jobId, service: `${marker} Plumbing` });
    await strikeRecorded({ workerId: newId(), workerName: `${marker} Struck`, reason: 'Did not arrive' });
    await strikeAppealed({ workerId: newId(), workerName: `${marker} Appealing` });
    await paymentFailed({ invoiceId: newId(), jobId, amount: 12_345, service: `${marker} Electrical` });

    // Assess
    const told = await ownersAbout(marker);
    const byTitle = Object.fromEntries(told.map((n) => [n.title, n]));
    expect(told).toHaveLength(7);
    expect(byTitle['New worker application']).toMatchObject({ actionUrl: ownerConsoleUrl.applications, read: false });
    expect(byTitle['New company application']).toMatchObject({ actionUrl: ownerConsoleUrl.applications });
    expect(byTitle['Document awaiting review']).toMatchObject({ actionUrl: ownerConsoleUrl.documents });
    expect(byTitle['Job with no pro']).toMatchObject({ actionUrl: ownerConsoleUrl.job(jobId), jobId });
    expect(byTitle['Strike recorded']).toMatchObject({ actionUrl: ownerConsoleUrl.workers });
    expect(byTitle['Strike appealed']).toMatchObject({ actionUrl: ownerConsoleUrl.workers });
    expect(byTitle['Payment failed']).toMatchObject({ actionUrl: ownerConsoleUrl.job(jobId), jobId });
    expect(byTitle['Payment failed']!.message).toContain('$123.45');
    // High priority: each also goes out as web push to the browsers the owner enabled it on.
    expect(told.every((n) => n.priority === 'high')).toBe(true);
  });

  it('tells the owner alone: the worker a strike is about gets nothing from it', async () => {
    // Prepare
    const workerId = newId();
    const marker = `Marker ${newId()}`;

    // Act
    await strikeRecorded({ workerId, workerName: marker, reason: 'Late twice' });
    await strikeAppealed({ workerId, workerName: marker });

    // Assess
    expect(await ownersAbout(marker)).toHaveLength(2);
    expect(await notificationsRepo.latest('worker', workerId)).toEqual([]);
    expect(await notificationsRepo.latest('customer', workerId)).toEqual([]);
  });

  it("sends the notification live to every console connected to the owner's channel", async () => {
    // Prepare
    const connectionId = await openTestConnection();
    await connectionsRepo.open(connectionId, { owner: true }, new Date().toISOString());
    const marker = `Marker ${newId()}`;

    // Act
    await newWorkerApplication({ id: newId(), fullName: marker });

    // Assess
    const frames = await framesOf(connectionId);
    const live = frames.filter((f) => f.event === 'notification' && f.data.message.includes(marker));
    expect(live).toHaveLength(1);
    expect(live[0]!.data).toMatchObject({ title: 'New worker application', actionUrl: ownerConsoleUrl.applications });
  });

  it('goes out as web push to a browser the owner enabled push on, opening the console tab', async () => {
    // Prepare
    const browser = browserSubscription(pushService);
    await pushSubscriptionsRepo.save({ role: 'owner', userId: OWNER_PUSH_ID }, { endpoint: browser.endpoint, ...browser.json.keys }, new Date().toISOString());
    const companyName = `Pushed ${newId()}`;
    await newCompanyApplication({ id: newId(), companyName });
    const [stored] = await ownersAbout(companyName);
    // The table's stream hands deliver-push the stored notification (locally, infra/local/dynamo-stream.ts).
    const key = keys.notification('owner', OWNER_PUSH_ID, stored!.timestamp, stored!.id);
    const item = await dynamo.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } }));
    const record = toStreamRecord({ tableName, key: { pk: { S: key.pk }, sk: { S: key.sk } }, before: undefined, after: item.Item })!;

    // Act
    await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    const [message] = pushService.received.filter((m) => m.path === browser.path);
    expect(JSON.parse(browser.decrypt(message!.body))).toMatchObject({ title: 'New company application', url: ownerConsoleUrl.applications });
  });

  it('keeps free text to one short line, so a long reason cannot flood the bell or a push', async () => {
    // Prepare
    const marker = `Marker ${newId()}`;

    // Act
    await strikeRecorded({ workerId: newId(), workerName: marker, reason: `line one\n\n${'x'.repeat(500)}` });

    // Assess
    const [told] = await ownersAbout(marker);
    expect(told!.message).not.toContain('\n');
    expect(told!.message.length).toBeLessThan(300);
  });
});

describe("owner events: the owner's mail", () => {
  /** The owner's mails whose subject names `marker` (every test file's owner mail goes to the one address). */
  const ownerMailsAbout = async (ownerEmail: string, marker: string) => (await mailsTo(ownerEmail)).filter((m) => m.subject.includes(marker));

  it('mails the owner once about a new worker application, with the link to the Applications tab, even when told twice and delivered twice', async () => {
    // Prepare
    const ownerEmail = await ownerMailbox();
    const fullName = `Applicant ${newId()}`;
    const { id } = await pendingApplication({ fullName });

    // Act: the event told again (as a retried call would), and its record delivered twice
    await newWorkerApplication({ id, fullName, servicesProvided: ['plumbing'] });
    const record = await outboxRecord('owner-new-application', id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await ownerMailsAbout(ownerEmail, fullName);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`New worker application: ${fullName}`);
    expect(mails[0]!.text).toContain(`Review applications: http://localhost:3000${paths.adminTab('applications')}`);
    // Only what the console shows: never the applicant's address.
    expect(mails[0]!.text).not.toContain('@example.com');
  });

  it('mails the owner once about a new company application', async () => {
    // Prepare
    const ownerEmail = await ownerMailbox();
    const companyName = `Company ${newId()}`;
    const { id } = await pendingCompanyApplication({ companyName });

    // Act
    await newCompanyApplication({ id, companyName });
    const record = await outboxRecord('owner-new-application', id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await ownerMailsAbout(ownerEmail, companyName);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${companyName} applied to work with Fixly as a company.`);
    expect(mails[0]!.text).toContain(`http://localhost:3000${paths.adminTab('applications')}`);
  });

  it('mails the owner once about a document waiting for review, even when its upload is confirmed twice', async () => {
    // Prepare
    const ownerEmail = await ownerMailbox();
    const fullName = `Uploader ${newId()}`;
    const { token } = await workerWithToken({ fullName });

    // Act: the upload confirmed, then confirmed again (answering the same document)
    const { document, ticket } = await confirmedWithTicket(token);
    expect((await invoke(confirmUpload, asWorker('confirm-document-upload', token, { params: { uploadId: ticket.uploadId } }))).status).toBe(201);
    const record = await outboxRecord('owner-documents-waiting', document.id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(document.status).toBe('pending_review');
    const mails = (await mailsTo(ownerEmail)).filter((m) => m.text?.includes(fullName));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Document to review: ${document.categoryName}`);
    expect(mails[0]!.text).toContain(`${fullName} uploaded a ${document.categoryName} that needs your review.`);
    expect(mails[0]!.text).toContain(`Review documents: http://localhost:3000${paths.adminTab('documents')}`);
  });

  it('makes no mail for an owner who gave no address', async () => {
    // Prepare
    const marker = `Marker ${newId()}`;

    // Act
    const messages = [
      ownerNewApplication(undefined, { id: newId(), kind: 'worker', name: marker }),
      ownerDocumentsWaiting(undefined, { id: newId(), categoryName: 'Form W-9', workerName: marker }),
      ownerDailySummary(undefined, {
        day: '2020-01-01',
        jobsSent: 0,
        jobsCompleted: 0,
        jobsPaid: 0,
        grossCents: 0,
        platformFeeCents: 0,
        waiting: { workerApplications: 0, companyApplications: 0, documents: 0, documentsMore: false, strikeAppeals: 0 },
      }),
    ];

    // Assess
    expect(messages).toEqual([null, null, null]);
  });

  it('keeps the mail of an event already mailed: a second queue of the same application writes nothing', async () => {
    // Prepare
    const ownerEmail = await ownerMailbox();
    const id = newId();
    const first = ownerNewApplication(ownerEmail, { id, kind: 'worker', name: 'First' })!;

    // Act
    const queued = [await mailRepo.queue(first), await mailRepo.queue({ ...first, subject: 'Second' })];

    // Assess
    expect(queued).toEqual([true, false]);
    expect((await mailRepo.find('owner-new-application', id))?.subject).toBe(first.subject);
  });
});
