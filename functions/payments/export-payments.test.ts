import { describe, expect, it } from 'vitest';
import { handler } from './export-payments';
import { csvCell } from '../common/csv';
import { asOwner } from '../testing/applications';
import { acceptedJob, clockOn, paidInvoice, privateDay, sentJob, verifiedJob, withQuery } from '../testing/analytics';
import { dispatchableWorker, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';

describe('GET /api/admin/exports/payments', () => {
  it('answers the payments made in the range as a CSV file, amounts in dollars and the payout as it stands (an id starting with - made harmless like any cell)', async () => {
    // Prepare
    const day = privateDay();
    const at = clockOn(day);
    const category = testCategory();
    const worker = await dispatchableWorker(category, null, { hourlyRate: 5000 });
    const job = await verifiedJob(await acceptedJob(await sentJob(category, null, at), worker, at, 1, 2), worker, at, 10);
    const invoice = await paidInvoice(job, worker, at, 200, 'held');

    // Act
    const res = await invoke(handler, withQuery(await asOwner('export-payments'), { from: day, to: day }));

    // Assess
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="payments-${day}-to-${day}.csv"`);
    const lines = (res.body as string).trimEnd().split('\r\n');
    expect(lines).toEqual([
      'Invoice id,Job id,Paid at,Customer,Pro,Service,Total,Card fee,Platform fee,Pro payout,Payout,Fee percent,Stripe payment',
      `${csvCell(invoice.id)},${csvCell(job.id)},${at(200)},Test Customer,${worker.fullName},Plumbing,103.30,3.30,10.00,90.00,held,10,`,
    ]);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('export-payments'))).status).toBe(401);
  });
});
