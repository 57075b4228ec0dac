import { describe, expect, it } from 'vitest';
import { handler } from './get-request-invoice';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { approvedJob, asCustomer, invoicedJob } from '../testing/money';

const sample = sampleEvent('get-request-invoice');

describe('GET /api/requests/{id}/invoice', () => {
  it("answers the request's invoice to its customer", async () => {
    const { job, invoice } = await invoicedJob();

    const res = await invoke(handler, await asCustomer(withPath(sample, { id: job.id }), job.customerId));

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: invoice.id, totalAmount: invoice.totalAmount, paymentStatus: 'pending' });
  });

  it('answers 404 before the worker invoices, and for a request that is not the caller\'s', async () => {
    const { job } = await approvedJob();
    const other = await invoicedJob();

    const notYet = await invoke(handler, await asCustomer(withPath(sample, { id: job.id }), job.customerId));
    const notTheirs = await invoke(handler, await asCustomer(withPath(sample, { id: other.job.id }), newId()));

    expect(notYet.status).toBe(404);
    expect(notYet.body.message).toBe('Invoice not found');
    expect(notTheirs.status).toBe(404);
  });
});
