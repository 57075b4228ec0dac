import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { MISSING_ID_DOCUMENTS } from '../../shared/schemas/applications';
import { handler as applyWorker } from './apply-worker';
import { applicationsRepo } from './data/applications';
import { newId } from '../common/ids';
import { objectExists } from '../common/storage';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { freshEmail, uploadFile, workerApplicationBody } from '../testing/applications';
import { handler } from './submit-worker-application';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from '../testing/mail';

const sample = sampleEvent('submit-worker-application');
const SSN = '9071';
const mentionsSsn = (text: string) => /ssn/i.test(text) || /(?<![\w-])9071(?![\w-])/.test(text);

let logs: MockInstance[] = [];
beforeEach(() => {
  logs = (['log', 'error', 'warn', 'info'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
});
afterEach(() => vi.restoreAllMocks());
const logged = () => logs.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' '))).join('\n');

describe('POST /api/worker-applications', () => {
  it('stores a pending application and answers with its id and the review promise only', async () => {
    // Prepare
    const body = await workerApplicationBody({ ssnLastFour: SSN });

    // Act
    const res = await invoke(handler, withBody(sample, body));

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      status: 'pending',
      message: "Application received. We'll review it and contact you within 2-3 business days.",
    });
    const stored = await applicationsRepo.findWorkerApplication(res.body.id);
    expect(stored).toMatchObject({
      status: 'pending',
      emailAddress: body.emailAddress,
      hourlyRate: 4550,
      servicesProvided: ['plumbing', 'handyman'],
      workingHours: body.workingHours,
      workerAgreement: true,
      photoIdFrontUrl: `applications/${res.body.id}/photoIdFrontUrl.jpg`,
      source: 'worker-applications',
      ssnLastFour: SSN,
    });
    expect((await applicationsRepo.findEmailClaim(body.emailAddress as string))?.applicationId).toBe(res.body.id);
  });

  it('never returns or logs the SSN digits or the document keys', async () => {
    const body = await workerApplicationBody({ ssnLastFour: SSN });

    const res = await invoke(handler, withBody(sample, body));
    const again = await invoke(handler, withBody(sample, body));

    expect(res.status).toBe(201);
    expect(again.status).toBe(409);
    for (const text of [JSON.stringify(res), JSON.stringify(again)]) {
      expect(mentionsSsn(text)).toBe(false);
      expect(text).not.toContain('uploads/');
      expect(text).not.toContain('applications/');
    }
    expect(mentionsSsn(logged())).toBe(false);
  });

  it('files the ID images where no upload form can write and deletes the uploads', async () => {
    // Prepare
    const body = await workerApplicationBody();

    // Act
    const res = await invoke(handler, withBody(sample, body));

    // Assess
    expect(res.status).toBe(201);
    const stored = await applicationsRepo.findWorkerApplication(res.body.id);
    const filed = [stored!.photoIdFrontUrl, stored!.photoIdBackUrl, stored!.selfieUrl];
    expect(filed).toEqual(['photoIdFrontUrl', 'photoIdBackUrl', 'selfieUrl'].map((field) => `applications/${res.body.id}/${field}.jpg`));
    for (const key of filed) expect(await objectExists(key)).toBe(true);
    for (const key of [body.photoIdFrontUrl, body.photoIdBackUrl, body.selfieUrl]) expect(await objectExists(key)).toBe(false);
  });

  it('keeps the uploads when the application is refused, so it can be filed again', async () => {
    // Prepare: the email is taken after the form was filled in
    const body = await workerApplicationBody();
    await invoke(handler, withBody(sample, await workerApplicationBody({ emailAddress: body.emailAddress })));

    // Act
    const res = await invoke(handler, withBody(sample, body));
    const again = await invoke(handler, withBody(sample, { ...body, emailAddress: freshEmail() }));

    // Assess
    expect(res.status).toBe(409);
    expect(again.status).toBe(201);
  });

  it('shows up in the pending list of the owner', async () => {
    const body = await workerApplicationBody();
    const res = await invoke(handler, withBody(sample, body));

    const pending = await applicationsRepo.listWorkerApplications('pending');

    expect(pending.map((a) => a.id)).toContain(res.body.id);
  });

  it('mails the applicant once that the application was received, with the link to create their account', async () => {
    // Prepare
    const body = await workerApplicationBody();
    const res = await invoke(handler, withBody(sample, body));
    const repeat = await invoke(handler, withBody(sample, await workerApplicationBody({ emailAddress: body.emailAddress })));
    const record = await outboxRecord('worker-application-received', res.body.id);

    // Act: the table's stream hands the outbox mail over, and delivers it a second time
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(repeat.status).toBe(409);
    const mails = await mailsTo(String(body.emailAddress));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('We received your application to work with Fixly');
    expect(mails[0]!.text).toContain(`Hi ${String(body.fullName)},`);
    expect(mails[0]!.text).toContain('Create your worker account: http://localhost:3000/worker/signup');
    expect(mentionsSsn(`${mails[0]!.text}\n${mails[0]!.html ?? ''}`)).toBe(false);
  });

  it('refuses a second application for the same email with a clear 409, however it is spelt', async () => {
    // Prepare
    const email = freshEmail();
    const first = await invoke(handler, withBody(sample, await workerApplicationBody({ emailAddress: email })));

    // Act
    const second = await invoke(handler, withBody(sample, await workerApplicationBody({ emailAddress: email.toUpperCase() })));

    // Assess
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: 'ConflictError',
      message: 'An application or account already exists for this email address.',
    });
    expect((await applicationsRepo.findEmailClaim(email))?.applicationId).toBe(first.body.id);
  });

  it('lets exactly one of two racing applications for one email through', async () => {
    const email = freshEmail();
    const bodies = await Promise.all([workerApplicationBody({ emailAddress: email }), workerApplicationBody({ emailAddress: email })]);

    const results = await Promise.all(bodies.map((b) => invoke(handler, withBody(sample, b))));

    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('refuses an email that applied through the first form', async () => {
    // Prepare
    const email = freshEmail();
    const legacy = JSON.parse(sampleEvent('apply-worker').body!);
    const [idFrontPhoto, idBackPhoto, selfie] = await Promise.all([uploadFile(), uploadFile(), uploadFile()]);
    const first = await invoke(applyWorker, withBody(sampleEvent('apply-worker'), { ...legacy, email, idFrontPhoto, idBackPhoto, selfie }));

    // Act
    const res = await invoke(handler, withBody(sample, await workerApplicationBody({ emailAddress: email })));

    // Assess
    expect(first.status).toBe(201);
    expect(res.status).toBe(409);
  });

  it('refuses an application whose selfie was never uploaded, on that field, and stores nothing', async () => {
    // Prepare
    const email = freshEmail();
    const body = await workerApplicationBody({ emailAddress: email, selfieUrl: `uploads/worker-documents/${newId()}.png` });

    // Act
    const res = await invoke(handler, withBody(sample, body));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ValidationError', message: MISSING_ID_DOCUMENTS, fields: { selfieUrl: MISSING_ID_DOCUMENTS } });
    expect(await applicationsRepo.findEmailClaim(email)).toBeUndefined();
  });

  it('refuses an identity image uploaded to another folder', async () => {
    const body = await workerApplicationBody({ photoIdBackUrl: await uploadFile('company-documents') });

    const res = await invoke(handler, withBody(sample, body));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ photoIdBackUrl: MISSING_ID_DOCUMENTS });
  });

  it.each([
    ['fullName', 'M', 'Full name required'],
    ['phoneNumber', '555-01', 'Valid phone number required'],
    ['emailAddress', 'maria@', 'Valid email required'],
    ['homeAddress', 'Elm St', 'Complete work address required'],
    ['yearsExperience', 51, 'Please enter a valid number'],
    ['servicesProvided', [], 'At least one service category required'],
    ['hourlyRate', 1499, 'Hourly rate must be at least $15'],
    ['hourlyRate', 20050, 'Hourly rate seems too high'],
    ['hourlyRate', 2525, 'Hourly rate goes in steps of $0.50'],
    ['ssnLastFour', '12a4', 'Must be exactly 4 digits'],
    ['ssnLastFour', '12345', 'Must be exactly 4 digits'],
    ['workingHours', 'any', 'Tell us when you can work (at least 5 characters)'],
    ['workerAgreement', false, 'You must accept this agreement'],
    ['liabilityAgreement', false, 'You must accept this agreement'],
    ['legalDisclaimerAccepted', false, 'Legal disclaimer must be accepted'],
    ['photoIdFrontUrl', '', MISSING_ID_DOCUMENTS],
    ['selfieUrl', 'https://evil.example/x.jpg', MISSING_ID_DOCUMENTS],
  ])('refuses %s = %j with "%s"', async (field, value, message) => {
    const body = { ...JSON.parse(sample.body!), emailAddress: freshEmail(), [field]: value };

    const res = await invoke(handler, withBody(sample, body));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ [field]: message });
  });

  it('refuses a status or id sent by the applicant', async () => {
    const res = await invoke(handler, withBody(sample, { ...JSON.parse(sample.body!), status: 'approved' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ _: 'Unknown field: status' });
  });
});
