import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../shared/entities';
import { handler } from './approve-worker';
import { applicationsRepo } from './data/applications';
import { workerAdmin } from '../workers/data/worker-admin';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { hashPassword } from '../common/auth/passwords';
import { applicantAccounts } from '../identity/data/applicant-accounts';
import { connectionsRepo } from '../realtime/data/connections';
import { notificationsRepo } from '../realtime/data/notifications';
import { accountLinkOf, receivedMailToken } from '../testing/account-links';
import { applicantWithAccount, asOwner, pendingApplication } from '../testing/applications';
import { framesOf, openTestConnection } from '../testing/sockets';
import { withBearer } from '../testing/workers';
import { handler as getSelf } from '../workers/get-worker-self';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { handler as rejectWorker } from './reject-worker';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { mailRepo } from '../mail/data/mail';
import { paths } from '../../web/src/lib/paths';

const approve = async (id: string) => invoke(handler, await asOwner('approve-worker', { id }));

describe('POST /api/admin/workers/{id}/approve', () => {
  it('creates an active, verified worker profile from the application', async () => {
    // Prepare
    const { id, body } = await pendingApplication();

    // Act
    const res = await approve(id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Worker Approved', workerId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    const worker = await workersRepo.findById(res.body.workerId);
    expect(worker).toEqual({
      ...keys.worker(res.body.workerId),
      ...keys.allWorkers(worker!.id, worker!.createdAt),
      entity: 'worker',
      id: res.body.workerId,
      applicationId: id,
      fullName: body.fullName,
      email: body.emailAddress,
      phone: body.phoneNumber,
      address: body.homeAddress,
      status: 'active',
      strikes: 0,
      isVerified: true,
      isAvailable: false,
      isClockedIn: false,
      lastClockIn: null,
      yearsExp: body.yearsExperience,
      categories: body.servicesProvided,
      hourlyRate: body.hourlyRate,
      workerType: null,
      profilePhotoKey: null,
      hasAccount: false,
      createdAt: worker!.createdAt,
      updatedAt: worker!.createdAt,
    });
    expect(JSON.stringify(worker)).not.toMatch(/"[^"]*ssn[^"]*"\s*:/i);
  });

  it('moves the application to approved and records the worker on the email claim', async () => {
    const { id, body } = await pendingApplication();

    const res = await approve(id);

    const application = await applicationsRepo.findWorkerApplication(id);
    expect(application).toMatchObject({ status: 'approved', workerId: res.body.workerId, ...keys.applicationsByStatus('worker', 'approved', application!.submittedAt) });
    expect(Date.parse(application!.approvedAt!)).not.toBeNaN();
    expect(application!.reviewedAt).toBe(application!.approvedAt);
    expect((await applicationsRepo.listWorkerApplications('pending')).map((a) => a.id)).not.toContain(id);
    expect(await applicationsRepo.findEmailClaim(body.emailAddress as string)).toMatchObject({ applicationId: id, workerId: res.body.workerId });
    expect((await workerAdmin.listAll()).map((w) => w.id)).toContain(res.body.workerId);
  });

  it('refuses a second approval with 409', async () => {
    const { id } = await pendingApplication();
    await approve(id);

    const again = await approve(id);

    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'ConflictError', message: 'This application has already been reviewed.' });
  });

  it('lets exactly one of two concurrent approvals create a worker', async () => {
    // Prepare
    const { id } = await pendingApplication();
    const events = await Promise.all([asOwner('approve-worker', { id }), asOwner('approve-worker', { id })]);

    // Act
    const results = await Promise.all(events.map((e) => invoke(handler, e)));

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!.body.workerId;
    const profiles = (await workerAdmin.listAll()).filter((w) => w.applicationId === id);
    expect(profiles.map((w) => w.id)).toEqual([winner]);
    expect((await applicationsRepo.findWorkerApplication(id))?.workerId).toBe(winner);
  });

  it('refuses to approve a rejected application', async () => {
    const { id } = await pendingApplication();
    await invoke(rejectWorker, await asOwner('reject-worker', { id }));

    const res = await approve(id);

    expect(res.status).toBe(409);
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('rejected');
  });

  it('answers 404 for an unknown or malformed application id', async () => {
    const unknown = await approve(newId());
    const malformed = await approve('../../x');

    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
  });

  it('answers 401 without the owner session and approves nothing', async () => {
    const { id } = await pendingApplication();

    const res = await invoke(handler, withPath(sampleEvent('approve-worker'), { id }));

    expect(res.status).toBe(401);
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('pending');
  });
});

describe('POST /api/admin/workers/{id}/approve of an applicant with an account', () => {
  afterEach(() => vi.restoreAllMocks());

  it('turns the profile their account made active and verified, keeping the account: no second profile', async () => {
    // Prepare
    const applicant = await applicantWithAccount();

    // Act
    const res = await approve(applicant.id);

    // Assess
    expect(res).toMatchObject({ status: 200, body: { message: 'Worker Approved', workerId: applicant.workerId } });
    expect(await workersRepo.findById(applicant.workerId)).toMatchObject({ status: 'active', isVerified: true, hasAccount: true });
    expect((await workerAdmin.listAll()).filter((w) => w.applicationId === applicant.id)).toHaveLength(1);
    expect(await applicationsRepo.findWorkerApplication(applicant.id)).toMatchObject({ status: 'approved', workerId: applicant.workerId });
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), applicant.token));
    expect(me.body.status).toBe('active');
  });

  it("tells the applicant's open screen at once (worker:status on their channel) and leaves a notification", async () => {
    // Prepare: the applicant's review screen holds a socket in their own channel.
    const applicant = await applicantWithAccount();
    const connectionId = await openTestConnection();
    await connectionsRepo.open(connectionId, { workerId: applicant.workerId }, new Date().toISOString());

    // Act
    await approve(applicant.id);

    // Assess
    const frames = await framesOf(connectionId);
    expect(frames).toContainEqual({ event: 'worker:status', data: { workerId: applicant.workerId, status: 'active' } });
    expect(frames.find((f) => f.event === 'notification')).toMatchObject({ data: { type: 'application_approved', title: 'Application approved' } });
    expect((await notificationsRepo.latest('worker', applicant.workerId)).map((n) => n.type)).toContain('application_approved');
  });

  it('approves the account made between its read and its write: one profile, one account', async () => {
    // Prepare: the applicant's account lands right after the approval read the email claim.
    const { id, body } = await pendingApplication();
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
    const res = await approve(id);

    // Assess
    expect(made).toEqual(expect.any(String));
    expect(res).toMatchObject({ status: 200, body: { workerId: made } });
    const profiles = (await workerAdmin.listAll()).filter((w) => w.applicationId === id);
    expect(profiles).toEqual([expect.objectContaining({ id: made, status: 'active', isVerified: true, hasAccount: true })]);
    expect(await applicationsRepo.findEmailClaim(body.emailAddress as string)).toMatchObject({ workerId: made });
  });
});

describe('POST /api/admin/workers/{id}/approve: the welcome mail', () => {
  it('mails the applicant once, with the link to create their account, even when approved twice and delivered twice', async () => {
    // Prepare
    const { id, body } = await pendingApplication();

    // Act: a second approval is refused (409); the stream delivers the mail's record twice
    expect((await approve(id)).status).toBe(200);
    expect((await approve(id)).status).toBe(409);
    const record = await outboxRecord('application-approved', id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(body.emailAddress);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Welcome to Fixly: your application is approved');
    expect(mails[0]!.text).toContain(`Hi ${body.fullName},`);
    expect(mails[0]!.text).toContain(`Create your worker account: http://localhost:3000${paths.workerSignup}#token=`);
  });

  it('sends an applicant who already made their account to sign in instead', async () => {
    // Prepare
    const applicant = await applicantWithAccount();

    // Act
    await approve(applicant.id);
    await sendMail({ Records: [await outboxRecord('application-approved', applicant.id)] });

    // Assess
    const [mail, ...more] = await mailsTo(applicant.body.emailAddress);
    expect(more).toEqual([]);
    expect(mail!.text).toContain('Your worker account is active now.');
    expect(mail!.text).toContain(`Sign in to your dashboard: http://localhost:3000${paths.workerLogin}`);
  });

  it('writes no welcome mail when the approval is refused', async () => {
    // Prepare
    const { id } = await pendingApplication();
    await invoke(rejectWorker, await asOwner('reject-worker', { id }));

    // Act
    const res = await approve(id);

    // Assess
    expect(res.status).toBe(409);
    expect(await mailRepo.find('application-approved', id)).toBeUndefined();
  });
});
