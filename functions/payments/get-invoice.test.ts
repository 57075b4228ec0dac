import { describe, expect, it } from 'vitest';
import { handler } from './get-invoice';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withCookies, withPath } from '../testing/events';
import { asCustomer, invoicedJob } from '../testing/money';
import { ownerSessionCookie } from '../testing/owner';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('get-invoice');
const of = (id: string) => withCookies(withPath(sample, { id }), []);

describe('GET /api/invoices/{id}', () => {
  it('shows the invoice to its customer, its worker and the owner', async () => {
    // Prepare
    const { job, worker, invoice } = await invoicedJob();

    // Act
    const asTheCustomer = await invoke(handler, await asCustomer(of(invoice.id), job.customerId));
    const asTheWorker = await invoke(handler, withBearer(of(invoice.id), await workerToken(worker.id)));
    const asOwner = await invoke(handler, withCookies(of(invoice.id), [await ownerSessionCookie()]));

    // Assess
    expect([asTheCustomer.status, asTheWorker.status, asOwner.status]).toEqual([200, 200, 200]);
    expect(asTheCustomer.body).toMatchObject({ id: invoice.id, serviceRequestId: job.id, payoutStatus: null });
    expect(asTheWorker.body.payoutStatus).toBe('unpaid');
  });

  it('answers anyone else, and a missing or malformed id, with the same 404 "Invoice not found"', async () => {
    const { invoice } = await invoicedJob();
    const other = await invoicedJob();

    const results = await Promise.all([
      invoke(handler, await asCustomer(of(invoice.id), newId())),
      invoke(handler, withBearer(of(invoice.id), await workerToken(other.worker.id))),
      invoke(handler, of(invoice.id)),
      invoke(handler, await asCustomer(of(newId()), other.job.customerId)),
      invoke(handler, await asCustomer(of('../../etc'), other.job.customerId)),
    ]);

    expect(results.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(results.every((r) => r.body.message === 'Invoice not found')).toBe(true);
  });
});
