import { describe, expect, it } from 'vitest';
import { handler as approveWorker } from './approve-worker';
import { handler } from './get-worker-application';
import { applicantWithAccount, asOwner } from '../testing/applications';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('get-worker-application');
const asWorker = (token: string) => invoke(handler, withBearer(sample, token));

describe('GET /api/workers/me/application', () => {
  it("answers an applicant under review their application's summary, and nothing private", async () => {
    // Prepare
    const applicant = await applicantWithAccount();

    // Act
    const res = await asWorker(applicant.token);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fullName: applicant.body.fullName,
      categories: applicant.body.servicesProvided,
      submittedAt: expect.any(String),
      status: 'pending',
      reviewedAt: null,
      reviewNotes: null,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/ssn|uploads\/|applications\//i);
  });

  it('answers the decision once approved', async () => {
    const applicant = await applicantWithAccount();
    await invoke(approveWorker, await asOwner('approve-worker', { id: applicant.id }));

    const res = await asWorker(applicant.token);

    expect(res.body).toMatchObject({ status: 'approved', reviewedAt: expect.any(String), reviewNotes: null });
  });

  it('answers 404 for a worker with no application on file', async () => {
    const worker = await createTestWorker();

    const res = await asWorker(await workerToken(worker.id));

    expect(res).toMatchObject({ status: 404, body: { message: 'No application is on file for this account.' } });
  });

  it('answers 401 without a worker token', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });
});
