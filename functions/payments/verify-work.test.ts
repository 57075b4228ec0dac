import { describe, expect, it } from 'vitest';
import { handler } from './verify-work';
import { invoicesRepo } from './data/invoices';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { asCustomer, invoicedJob } from '../testing/money';

const sample = sampleEvent('verify-work');

describe('POST /api/verify-work/{invoiceId}', () => {
  it('marks the invoice verified for its customer, once, and answers a repeat with the same invoice', async () => {
    // Prepare
    const { job, invoice } = await invoicedJob({ verified: false });
    const event = await asCustomer(withPath(sample, { id: invoice.id }), job.customerId);

    // Act
    const first = await invoke(handler, event);
    const stored = await invoicesRepo.findById(invoice.id);
    const again = await invoke(handler, event);

    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: invoice.id, workVerified: true, workVerifiedAt: expect.any(String) });
    expect(again.status).toBe(200);
    expect(again.body.workVerifiedAt).toBe(stored?.workVerifiedAt);
  });

  it("refuses another customer's invoice with 404 and leaves it unverified", async () => {
    const { invoice } = await invoicedJob({ verified: false });

    const res = await invoke(handler, await asCustomer(withPath(sample, { id: invoice.id }), newId()));

    expect(res.status).toBe(404);
    expect((await invoicesRepo.findById(invoice.id))?.workVerified).toBe(false);
  });

  it('refuses a body (this call takes none)', async () => {
    const { job, invoice } = await invoicedJob({ verified: false });

    const res = await invoke(handler, { ...(await asCustomer(withPath(sample, { id: invoice.id }), job.customerId)), body: '{"workVerified":true}', headers: { ...sample.headers, 'content-type': 'application/json' } });

    expect(res.status).toBe(400);
    expect((await invoicesRepo.findById(invoice.id))?.workVerified).toBe(false);
  });
});
