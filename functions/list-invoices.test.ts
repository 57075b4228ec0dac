import { describe, expect, it } from 'vitest';
import { handler } from './list-invoices';
import { newId } from './lib/ids';
import { invoke, sampleEvent, withCookies } from './lib/testing/events';
import { asCustomer, invoicedJob } from './lib/testing/money';
import { ownerSessionCookie } from './lib/testing/owner';
import { withBearer, workerToken } from './lib/testing/workers';

const sample = sampleEvent('list-invoices');

describe('GET /api/invoices', () => {
  it("gives a customer their own invoices only, without payout details", async () => {
    // Prepare
    const mine = await invoicedJob();
    await invoicedJob();

    // Act
    const res = await invoke(handler, await asCustomer(sample, mine.job.customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.map((i: { id: string }) => i.id)).toEqual([mine.invoice.id]);
    expect(res.body[0]).toMatchObject({ totalAmount: mine.invoice.totalAmount, payoutStatus: null, workerStripeAccountId: null });
  });

  it("gives a worker their own invoices, with the payout state", async () => {
    const theirs = await invoicedJob();
    await invoicedJob();

    const res = await invoke(handler, withBearer(withCookies(sample, []), await workerToken(theirs.worker.id)));

    expect(res.body.map((i: { id: string }) => i.id)).toEqual([theirs.invoice.id]);
    expect(res.body[0].payoutStatus).toBe('unpaid');
  });

  it('gives the owner every invoice, newest first', async () => {
    const first = await invoicedJob();
    const second = await invoicedJob();

    const res = await invoke(handler, withCookies(sample, [await ownerSessionCookie()]));

    const ids = res.body.map((i: { id: string }) => i.id);
    expect(ids.indexOf(second.invoice.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(second.invoice.id)).toBeLessThan(ids.indexOf(first.invoice.id));
  });

  it('gives a visitor without a cookie, or a customer with none, an empty list', async () => {
    expect((await invoke(handler, withCookies(sample, []))).body).toEqual([]);
    expect((await invoke(handler, await asCustomer(sample, newId()))).body).toEqual([]);
  });
});
