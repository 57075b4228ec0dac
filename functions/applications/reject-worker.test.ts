import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../shared/entities';
import { handler as approveWorker } from './approve-worker';
import { handler as getApplication } from './get-worker-application';
import { handler as getSelf } from '../workers/get-worker-self';
import { hashPassword } from '../common/auth/passwords';
import { applicantAccounts } from '../identity/data/applicant-accounts';
import { applicationsRepo } from './data/applications';
import { connectionsRepo } from '../realtime/data/connections';
import { workerAdmin } from '../workers/data/worker-admin';
import { workersRepo } from '../workers/data/workers';
import { framesOf, openTestConnection } from '../testing/sockets';
import { withBearer } from '../testing/workers';
import { newId } from '../common/ids';
import { accountLinkOf, receivedMailToken } from '../testing/account-links';
import { applicantWithAccount, asOwner, pendingApplication, workerApplicationBody } from '../testing/applications';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { handler } from './reject-worker';
import { handler as submitWorkerApplication } from './submit-worker-application';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { mailRepo } from '../mail/data/mail';

const NOTES = 'We need a clearer photo of your ID: please apply again with a sharper image.';
const reject = async (id: string, body: unknown = { notes: NOTES }) => invoke(handler, withBody(await asOwner('reject-worker', { id }), body));

describe('POST /api/admin/workers/{id}/reject', () => {
  it('records the rejection and takes the application off the pending list', async () => {
    // Prepare
    const { id } = await pendingApplication();

    // Act
    const res = await reject(id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Worker Rejected' });
    const application = await applicationsRepo.findWorkerApplication(id);
    expect(application).toMatchObject({ status: 'rejected', ...keys.applicationsByStatus('worker', 'rejected', application!.submittedAt) });
    expect(Date.parse(application!.reviewedAt!)).not.toBeNaN();
    expect(application).not.toHaveProperty('approvedAt');
    expect((await applicationsRepo.listWorkerApplications('pending')).map((a) => a.id)).not.toContain(id);
  });

  it('keeps the email claimed, so the same email cannot simply reapply', async () => {
    const { id, body } = await pendingApplication();
    await reject(id);

    const again = await invoke(
      submitWorkerApplication,
      withBody(sampleEvent('submit-worker-application'), await workerApplicationBody({ emailAddress: body.emailAddress })),
    );

    expect(again.status).toBe(409);
  });

  it('refuses to reject an application twice or after approval', async () => {
    const [a, b] = await Promise.all([pendingApplication(), pendingApplication()]);
    await reject(a.id);
    await invoke(approveWorker, await asOwner('approve-worker', { id: b.id }));

    const twice = await reject(a.id);
    const afterApproval = await reject(b.id);

    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This application has already been reviewed.');
    expect(afterApproval.status).toBe(409);
    expect((await applicationsRepo.findWorkerApplication(b.id))?.status).toBe('approved');
  });

  it('answers 404 for an unknown application', async () => {
    expect((await reject(newId())).status).toBe(404);
  });
});

describe('POST /api/admin/workers/{id}/reject: the owner says why', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stores the notes with the decision', async () => {
    const { id } = await pendingApplication();

    await reject(id, { notes: `  ${NOTES}  ` });

    expect(await applicationsRepo.findWorkerApplication(id)).toMatchObject({ status: 'rejected', reviewNotes: NOTES });
  });

  it.each([
    ['no notes', {}, 'Tell the applicant why they are not approved'],
    ['blank notes', { notes: '   ' }, 'Tell the applicant why they are not approved'],
    ['notes over 1,000 characters', { notes: 'x'.repeat(1001) }, 'Notes must be at most 1000 characters'],
  ])('refuses %s with 400 naming the field, and decides nothing', async (_, body, message) => {
    const { id } = await pendingApplication();

    const res = await reject(id, body);

    expect(res).toMatchObject({ status: 400, body: { error: 'ValidationError', fields: { notes: message } } });
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('pending');
  });

  it("turns an applicant's account 'rejected': it still signs in to the decision and the notes, live", async () => {
    // Prepare
    const applicant = await applicantWithAccount();
    const connectionId = await openTestConnection();
    await connectionsRepo.open(connectionId, { workerId: applicant.workerId }, new Date().toISOString());

    // Act
    const res = await reject(applicant.id);

    // Assess
    expect(res.status).toBe(200);
    expect(await workersRepo.findById(applicant.workerId)).toMatchObject({ status: 'rejected', hasAccount: true });
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), applicant.token));
    expect(me.body.status).toBe('rejected');
    const application = await invoke(getApplication, withBearer(sampleEvent('get-worker-application'), applicant.token));
    expect(application.body).toMatchObject({ status: 'rejected', reviewNotes: NOTES, reviewedAt: expect.any(String) });
    const frames = await framesOf(connectionId);
    expect(frames).toContainEqual({ event: 'worker:status', data: { workerId: applicant.workerId, status: 'rejected' } });
    expect(frames.find((f) => f.event === 'notification')).toMatchObject({ data: { type: 'application_rejected' } });
  });

  it('never leaves an account under review beside a rejected application when the account lands between its read and its write', async () => {
    // Prepare: the applicant's account lands right after the rejection read the email claim.
    const { id } = await pendingApplication();
    const passwordHash = await hashPassword('applicant-pass-42');
    const link = await accountLinkOf(await receivedMailToken(id));
    const read = applicationsRepo.findEmailClaim.bind(applicationsRepo);
    let made: string | undefined;
    let raced = false;
    vi.spyOn(applicationsRepo, 'findEmailClaim').mockImplementation(async (email) => {
      const claim = await read(email);
      if (!raced) {
        raced = true;
        const outcome = await applicantAccounts.setWithLink(link, passwordHash, newId());
        made = 'created' in outcome ? outcome.created.id : undefined;
      }
      return claim;
    });

    // Act
    const res = await reject(id);

    // Assess
    expect(res.status).toBe(200);
    expect(made).toEqual(expect.any(String));
    expect(await workersRepo.findById(made!)).toMatchObject({ status: 'rejected' });
    expect((await workerAdmin.listAll()).filter((w) => w.applicationId === id)).toHaveLength(1);
  });
});

describe('POST /api/admin/workers/{id}/reject: the mail', () => {
  it("mails the applicant once, kindly, with the owner's notes, even when rejected twice and delivered twice", async () => {
    // Prepare
    const { id, body } = await pendingApplication();

    // Act
    expect((await reject(id)).status).toBe(200);
    expect((await reject(id)).status).toBe(409);
    const record = await outboxRecord('application-rejected', id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(body.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('About your application to work with Fixly');
    expect(mails[0]!.text).toContain(`Hi ${body.fullName},`);
    expect(mails[0]!.text).toContain(`Our reviewer's notes: ${NOTES}`);
    expect(mails[0]!.text).toContain('Thank you for your interest');
  });

  it('writes no mail when the notes are missing and nothing is rejected', async () => {
    const { id } = await pendingApplication();

    const res = await reject(id, {});

    expect(res.status).toBe(400);
    expect(await mailRepo.find('application-rejected', id)).toBeUndefined();
  });
});
