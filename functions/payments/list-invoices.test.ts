import { describe, expect, it } from 'vitest';
import { handler } from './list-invoices';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withCookies } from '../testing/events';
import { asCustomer, invoicedJob } from '../testing/money';
import { ownerSessionCookie } from '../testing/owner';
import { withBearer, workerToken } from '../testing/workers';

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

  it("gives the owner every invoice a page at a time, the next page starting after the last one", async () => {
    // Prepare (other test files write invoices into the same table meanwhile: only order is asserted)
    const older = await invoicedJob();
    const newer = await invoicedJob();
    const owner = withCookies(sample, [await ownerSessionCookie()]);
    type Listed = { id: string; createdAt: string; payoutStatus: string | null };

    // Act
    const first = await invoke(handler, { ...owner, queryStringParameters: { limit: '2' } });
    const next = await invoke(handler, { ...owner, queryStringParameters: { limit: '2', after: first.body[1].id } });
    const afterNewer = await invoke(handler, { ...owner, queryStringParameters: { limit: '100', after: newer.invoice.id } });

    // Assess
    const [firstPage, nextPage, fromNewer] = [first.body as Listed[], next.body as Listed[], afterNewer.body as Listed[]];
    expect([firstPage.length, nextPage.length]).toEqual([2, 2]);
    expect(nextPage.map((i) => i.id)).not.toContain(firstPage[1]!.id);
    expect(nextPage[0]!.createdAt <= firstPage[1]!.createdAt).toBe(true);
    expect(fromNewer.map((i) => i.id)).toContain(older.invoice.id);
    expect(fromNewer.map((i) => i.id)).not.toContain(newer.invoice.id);
    expect(fromNewer.find((i) => i.id === older.invoice.id)?.payoutStatus).toBe('unpaid');
  });

  it('refuses a page size the owner list does not offer', async () => {
    const owner = withCookies(sample, [await ownerSessionCookie()]);

    const res = await invoke(handler, { ...owner, queryStringParameters: { limit: '1000' } });

    expect(res.status).toBe(400);
  });

  it("reads a worker's own invoices whole, whatever page the query asks for", async () => {
    const theirs = await invoicedJob();

    const res = await invoke(handler, { ...withBearer(withCookies(sample, []), await workerToken(theirs.worker.id)), queryStringParameters: { limit: '1', after: newId() } });

    expect(res.body.map((i: { id: string }) => i.id)).toEqual([theirs.invoice.id]);
  });

  it('gives a visitor without a cookie, or a customer with none, an empty list', async () => {
    expect((await invoke(handler, withCookies(sample, []))).body).toEqual([]);
    expect((await invoke(handler, await asCustomer(sample, newId()))).body).toEqual([]);
  });
});
