import { describe, expect, it } from 'vitest';
import { handler } from './verify-request-bill';
import { handler as verifyWork } from './verify-work';
import { invoicesRepo } from './data/invoices';
import { newId } from '../common/ids';
import { invoicedCrew } from '../testing/crew-bills';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { asCustomer } from '../testing/money';

const sample = sampleEvent('verify-request-bill');
const verify = async (id: string, customerId: string) => invoke(handler, await asCustomer(withPath(sample, { id }), customerId));

describe('POST /api/requests/{id}/bill/verify', () => {
  it("verifies every pro's line once and answers the bill, ready to pay; a second press answers the same", async () => {
    // Prepare
    const crew = await invoicedCrew([{}, {}]);

    // Act
    const [first, second] = await Promise.all([verify(crew.lead.id, crew.customerId), verify(crew.lead.id, crew.customerId)]);
    const again = await verify(crew.lead.id, crew.customerId);

    // Assess
    expect([first.status, second.status, again.status]).toEqual([200, 200, 200]);
    expect(again.body).toMatchObject({ status: 'to_pay', verifiedAt: expect.any(String) });
    // Each line verified once: the later presses found them verified and kept the first time.
    const stored = await invoicesRepo.findMany(crew.invoices.map((i) => i!.id));
    expect(stored.every((i) => i.workVerified)).toBe(true);
    expect(again.body.lines.map((l: { workVerifiedAt: string }) => l.workVerifiedAt).sort()).toEqual(stored.map((i) => i.workVerifiedAt).sort());
    expect(first.body.verifiedAt).toBe(again.body.verifiedAt);
  });

  it('refuses while a pro who worked has not invoiced (409), and verifies nothing', async () => {
    // Prepare
    const crew = await invoicedCrew([{}, { uninvoiced: true }]);

    // Act
    const res = await verify(crew.lead.id, crew.customerId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Some of your pros have not sent their invoices yet. You can verify the bill once they have.');
    expect((await invoicesRepo.findById(crew.invoices[0]!.id))?.workVerified).toBe(false);
  });

  it("answers another customer's crew with 404, and leaves a line's own Verify Work to the bill (409)", async () => {
    // Prepare
    const crew = await invoicedCrew([{}, {}]);
    const line = crew.invoices[1]!;

    // Act
    const notTheirs = await verify(crew.lead.id, newId());
    const alone = await invoke(verifyWork, await asCustomer(withPath(sampleEvent('verify-work'), { id: line.id }), crew.customerId));

    // Assess
    expect(notTheirs.status).toBe(404);
    expect(alone.status).toBe(409);
    expect(alone.body.message).toBe("This invoice is part of your crew's bill. Verify the bill on the request's page.");
    expect((await invoicesRepo.findById(line.id))?.workVerified).toBe(false);
  });
});
