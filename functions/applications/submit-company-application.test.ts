import { describe, expect, it } from 'vitest';
import { applicationsRepo } from './data/applications';
import { newId } from '../common/ids';
import { freshEmail, uploadFile, workerApplicationBody } from '../testing/applications';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { handler } from './submit-company-application';
import { handler as submitWorkerApplication } from './submit-worker-application';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { mailRepo } from '../mail/data/mail';
import { SUPPRESSED_ADDRESS } from '../mail/deliverable';

const sample = sampleEvent('submit-company-application');
const sampleBody = JSON.parse(sample.body!) as Record<string, unknown>;
const fresh = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({ ...sampleBody, emailAddress: freshEmail(), ...overrides });

describe('POST /api/company-applications', () => {
  it('stores a pending company application and promises contact within 2-3 business days', async () => {
    // Prepare
    const body = fresh();

    // Act
    const res = await invoke(handler, withBody(sample, body));

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      status: 'pending',
      message: 'Application submitted. We will contact you within 2-3 business days.',
    });
    expect(await applicationsRepo.findCompanyApplication(res.body.id)).toMatchObject({
      status: 'pending',
      companyName: 'Lakeside Property Group',
      workerTypesNeeded: ['Plumbing', 'Cleaning'],
      emailAddress: body.emailAddress,
    });
  });

  it('accepts uploaded documents and keeps their keys out of the response', async () => {
    const [businessLicenseUrl, insuranceCertificateUrl] = await Promise.all([
      uploadFile('company-documents', 'application/pdf'),
      uploadFile('company-documents', 'image/png'),
    ]);

    const res = await invoke(handler, withBody(sample, fresh({ businessLicenseUrl, insuranceCertificateUrl })));

    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain('uploads/');
    expect(await applicationsRepo.findCompanyApplication(res.body.id)).toMatchObject({
      businessLicenseUrl: `applications/${res.body.id}/businessLicenseUrl.pdf`,
      insuranceCertificateUrl: `applications/${res.body.id}/insuranceCertificateUrl.png`,
    });
  });

  it('accepts a minimal application without the optional fields', async () => {
    const { einTaxId: _e, billingContactName: _n, billingContactEmail: _m, businessLicenseUrl: _b, insuranceCertificateUrl: _i, ...rest } =
      fresh();

    const res = await invoke(handler, withBody(sample, rest));

    expect(res.status).toBe(201);
  });

  it('refuses a document that was never uploaded, on that field', async () => {
    const res = await invoke(handler, withBody(sample, fresh({ insuranceCertificateUrl: `uploads/company-documents/${newId()}.pdf` })));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ insuranceCertificateUrl: 'Upload the document again' });
  });

  it('refuses a second application for the same email with 409', async () => {
    const email = freshEmail();
    const first = await invoke(handler, withBody(sample, fresh({ emailAddress: email })));

    const second = await invoke(handler, withBody(sample, fresh({ emailAddress: email })));

    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'ConflictError', message: 'A company application already exists for this email address.' });
  });

  it('mails the contact once that the application was received, with the link to its status page', async () => {
    // Prepare
    const email = freshEmail();
    const res = await invoke(handler, withBody(sample, fresh({ emailAddress: email })));
    const repeat = await invoke(handler, withBody(sample, fresh({ emailAddress: email })));
    const record = await outboxRecord('company-application-received', res.body.id);

    // Act: the table's stream hands the outbox mail over, and delivers it a second time
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(repeat.status).toBe(409);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("We received Lakeside Property Group's application");
    expect(mails[0]!.text).toContain(`Check your application: http://localhost:3000/apply/company/status/${res.body.id}`);
    expect(mails[0]!.text).toContain(`Your reference is ${res.body.id}.`);
  });

  it('mails a company whose name was typed with a line break, under a subject on one line', async () => {
    // Prepare
    const email = freshEmail();
    const res = await invoke(handler, withBody(sample, fresh({ emailAddress: email, companyName: 'Lakeside\r\nProperty \u0085 Group' })));
    const record = await outboxRecord('company-application-received', res.body.id);

    // Act
    await sendMail({ Records: [record] });

    // Assess
    expect(res.status).toBe(201);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("We received Lakeside Property Group's application");
    expect((await mailRepo.find('company-application-received', res.body.id))?.state).toBe('sent');
  });

  it('lets a worker applicant also apply for their company with the same email', async () => {
    const email = freshEmail();
    const worker = await invoke(submitWorkerApplication, withBody(sampleEvent('submit-worker-application'), await workerApplicationBody({ emailAddress: email })));

    const res = await invoke(handler, withBody(sample, fresh({ emailAddress: email })));

    expect(worker.status).toBe(201);
    expect(res.status).toBe(201);
  });

  it.each([
    ['companyName', 'A', 'Company name is required'],
    ['businessType', 'Bakery', 'Please select a business type'],
    ['contactPersonName', '', 'Contact name is required'],
    ['phoneNumber', '123', 'Valid phone number is required'],
    ['emailAddress', 'x@', 'Valid email is required'],
    ['companyAddress', 'Main', 'Company address is required'],
    ['workerTypesNeeded', [], 'Select at least one worker type'],
    ['typicalWorkerCount', '100', 'Select how many workers you typically need'],
    ['averageProjectDuration', 'forever', 'Select a typical project duration'],
    ['billingContactEmail', 'billing@', 'Billing email must be a valid email or empty'],
    ['agreementAccepted', false, 'You must accept the agreement'],
    ['businessLicenseUrl', 'https://example.com/license.pdf', 'Upload the document again'],
  ])('refuses %s = %j with "%s"', async (field, value, message) => {
    const res = await invoke(handler, withBody(sample, fresh({ [field]: value })));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ [field]: message });
  });
});

describe('POST /api/company-applications: an address mail cannot reach', () => {
  it('refuses an address at a misspelt mail provider, naming the address meant, and files nothing', async () => {
    // Prepare
    const local = `contact-${crypto.randomUUID().slice(0, 8)}`;

    // Act
    const res = await invoke(handler, withBody(sample, fresh({ emailAddress: `${local}@gmial.com` })));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ emailAddress: `Mail to gmial.com cannot arrive. Did you mean ${local}@gmail.com?` });
    await expect(applicationsRepo.requireEmailFree('company', `${local}@gmial.com`)).resolves.toBeUndefined();
  });

  it('refuses an address whose mail bounced before, on its field, and files nothing', async () => {
    // Prepare: SES reported a permanent bounce for the address
    const email = freshEmail();
    await mailRepo.suppress(email, 'bounce', 'General');

    // Act
    const res = await invoke(handler, withBody(sample, fresh({ emailAddress: email })));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ emailAddress: SUPPRESSED_ADDRESS });
    await expect(applicationsRepo.requireEmailFree('company', email)).resolves.toBeUndefined();
    expect(await mailsTo(email)).toEqual([]);
  });
});
