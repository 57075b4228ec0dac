import { describe, expect, it } from 'vitest';
import { handler } from './get-payment-confirmation';
import { testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withPath } from '../testing/events';

const sample = sampleEvent('get-payment-confirmation');
const confirm = (id: string, sessionId?: string) =>
  invoke(handler, { ...withPath(sample, { id }), queryStringParameters: sessionId ? { session_id: sessionId } : {} });

describe('GET /api/requests/{id}/payment', () => {
  it('does not confirm a job that has no paid invoice, whatever the address bar says', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());

    // Act
    const res = await confirm(job.id, 'cs_test_forged');

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jobId: job.id, paid: false, totalAmount: null, paidAt: null });
  });

  it('answers a made-up job id with 404', async () => {
    // Act
    const res = await confirm('abc');

    // Assess
    expect(res.status).toBe(404);
  });
});
