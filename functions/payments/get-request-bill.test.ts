import { describe, expect, it } from 'vitest';
import { crewBillView } from '../../shared/schemas/views/invoice';
import { handler } from './get-request-bill';
import { newId } from '../common/ids';
import { invoicedCrew } from '../testing/crew-bills';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { asCustomer, invoicedJob } from '../testing/money';

const sample = sampleEvent('get-request-bill');
const bill = async (id: string, customerId: string) => invoke(handler, await asCustomer(withPath(sample, { id }), customerId));

describe('GET /api/requests/{id}/bill', () => {
  it("answers a crew's one bill: a line per pro in crew order, each with its part of the rush fee and no card fee, and the one charge's card fee on the whole", async () => {
    // Prepare: two pros, 2 h at $50 each, the request sent as soon as possible ($25 rush per pro)
    const crew = await invoicedCrew([{}, { materialsCents: 10_00 }]);

    // Act
    const res = await bill(crew.lead.id, crew.customerId);

    // Assess
    expect(res.status).toBe(200);
    expect(crewBillView.safeParse(res.body).success).toBe(true);
    expect(res.body.lines.map((l: { id: string }) => l.id)).toEqual(crew.invoices.map((i) => i!.id));
    expect(res.body.lines[0]).toMatchObject({ laborHours: 2, rushFee: 2500, transactionFee: 0, totalAmount: 12500, platformFee: 1250, workerShare: 11250, crewRequestId: crew.lead.id, workVerified: false, payoutStatus: null });
    expect(res.body.lines[1]).toMatchObject({ materialsCost: 1000, rushFee: 2500, totalAmount: 13500 });
    expect(res.body).toMatchObject({
      requestId: crew.lead.id,
      workerCount: 2,
      awaiting: [],
      subtotal: 26000,
      transactionFee: 808, // ceil((260.00 + 0.30) / 0.971) = 268.08: one fixed 30c for the one charge
      totalAmount: 26808,
      platformFee: 2600,
      feePercent: 10,
      estimatedTotal: crew.lead.estimate!.totalCost,
      status: 'to_verify',
      verifiedAt: null,
      paidAt: null,
    });
  });

  it('waits for a pro who worked and has not invoiced, and leaves out a job that ended with nobody', async () => {
    // Prepare
    const crew = await invoicedCrew([{}, { uninvoiced: true }, { nobody: true }]);

    // Act
    const res = await bill(crew.lead.id, crew.customerId);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('awaiting');
    expect(res.body.lines).toHaveLength(1);
    expect(res.body.awaiting).toEqual([{ jobId: crew.jobs[1]!.id, index: 2, workerName: crew.workers[1]!.fullName }]);
    expect(res.body.workerCount).toBe(3);
  });

  it("answers 404 for a request of one pro, a crew member's own id and another customer's crew", async () => {
    // Prepare
    const single = await invoicedJob();
    const crew = await invoicedCrew([{}, {}]);

    // Act
    const answers = await Promise.all([bill(single.job.id, single.job.customerId), bill(crew.jobs[1]!.id, crew.customerId), bill(crew.lead.id, newId())]);

    // Assess
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(answers[0]!.body.message).toBe('Request not found');
  });
});
