import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { MISSING_ID_DOCUMENTS } from '../../shared/schemas/applications';
import { handler } from './apply-worker';
import { applicationsRepo } from './data/applications';
import { newId } from '../common/ids';
import { freshEmail, uploadFile, workerApplicationBody } from '../testing/applications';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { handler as submitWorkerApplication } from './submit-worker-application';

const sample = sampleEvent('apply-worker');
const sampleBody = JSON.parse(sample.body!) as Record<string, unknown>;

let logs: MockInstance[] = [];
beforeEach(() => {
  logs = (['log', 'error', 'warn', 'info'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
});
afterEach(() => vi.restoreAllMocks());
const logged = () => logs.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' '))).join('\n');

async function legacyBody(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const [idFrontPhoto, idBackPhoto, selfie] = await Promise.all([uploadFile(), uploadFile(), uploadFile()]);
  return { ...sampleBody, email: freshEmail(), idFrontPhoto, idBackPhoto, selfie, ...overrides };
}

describe('POST /api/workers/apply (the first form)', () => {
  it('stores the same record as the JSON form, with the rate in cents', async () => {
    // Prepare
    const body = await legacyBody({ hourlyRate: 55.5, ssnLast4: '8264' });

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
      source: 'workers-apply',
      status: 'pending',
      fullName: body.fullName,
      phoneNumber: body.phone,
      emailAddress: body.email,
      homeAddress: body.workAddress,
      yearsExperience: body.yearsExp,
      servicesProvided: body.categories,
      hourlyRate: 5550,
      ssnLastFour: '8264',
      photoIdFrontUrl: `applications/${res.body.id}/idFrontPhoto.jpg`,
      photoIdBackUrl: `applications/${res.body.id}/idBackPhoto.jpg`,
      selfieUrl: `applications/${res.body.id}/selfie.jpg`,
      legalDisclaimerAccepted: true,
      workerAgreement: false,
      workQualityAgreement: false,
      timelinessAgreement: false,
      liabilityAgreement: false,
    });
    expect(stored).not.toHaveProperty('workingHours');
  });

  it('rounds a dollar rate to whole cents', async () => {
    const res = await invoke(handler, withBody(sample, await legacyBody({ hourlyRate: 33.337 })));

    expect((await applicationsRepo.findWorkerApplication(res.body.id))?.hourlyRate).toBe(3334);
  });

  it('never returns or logs the SSN digits', async () => {
    const body = await legacyBody({ ssnLast4: '8264' });

    const res = await invoke(handler, withBody(sample, body));
    const again = await invoke(handler, withBody(sample, body));

    for (const text of [JSON.stringify(res), JSON.stringify(again), logged()]) {
      // A key, not any text: random ids may spell "ssn".
      expect(text).not.toMatch(/"[^"]*ssn[^"]*"\s*:/i);
      expect(text).not.toMatch(/(?<![\w-])8264(?![\w-])/);
    }
  });

  it('refuses an email that already applied through the JSON form with a clear 409', async () => {
    // Prepare
    const email = freshEmail();
    const first = await invoke(submitWorkerApplication, withBody(sampleEvent('submit-worker-application'), await workerApplicationBody({ emailAddress: email })));

    // Act
    const res = await invoke(handler, withBody(sample, await legacyBody({ email })));

    // Assess
    expect(first.status).toBe(201);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An application or account already exists for this email address.');
  });

  it('refuses missing uploads under the first form\'s field names', async () => {
    const body = await legacyBody({ idFrontPhoto: `uploads/worker-documents/${newId()}.jpg`, selfie: `uploads/worker-documents/${newId()}.jpg` });

    const res = await invoke(handler, withBody(sample, body));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ idFrontPhoto: MISSING_ID_DOCUMENTS, selfie: MISSING_ID_DOCUMENTS });
    expect(await applicationsRepo.findEmailClaim(body.email as string)).toBeUndefined();
  });

  it.each([
    ['phone', '12345', 'Valid phone number required'],
    ['email', 'not-an-email', 'Valid email required'],
    ['workAddress', 'Short St', 'Complete work address required'],
    ['yearsExp', -1, 'Years of experience required'],
    ['categories', [], 'At least one service category required'],
    ['hourlyRate', 14.99, 'Hourly rate must be at least $15'],
    ['hourlyRate', 200.01, 'Hourly rate seems too high'],
    ['ssnLast4', '123', 'Last 4 digits of SSN required'],
    ['legalDisclaimerAccepted', false, 'Legal disclaimer must be accepted'],
    ['idFrontPhoto', '', 'Valid ID front photo required'],
    ['idBackPhoto', 'back.jpg', 'Valid ID back photo required'],
  ])('refuses %s = %j with "%s"', async (field, value, message) => {
    const res = await invoke(handler, withBody(sample, { ...sampleBody, email: freshEmail(), [field]: value }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ [field]: message });
  });
});
