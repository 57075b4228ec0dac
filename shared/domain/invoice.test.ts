import { describe, expect, it } from 'vitest';
import { dollarsToCents, invoiceAmounts, invoiceNumber, paymentListLabel, payButtonLabel, roundHours } from './invoice';

/** A small seeded generator, so a failing case can be replayed from the seed it prints. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('invoice amounts', () => {
  it('computes hours x rate + materials in cents', () => {
    // Act
    const amounts = invoiceAmounts({ laborHours: 2.5, hourlyRateCents: 4500, materialsCents: 4250, feePercent: 10 });

    // Assess
    expect(amounts).toEqual({
      laborCents: 11250,
      rushCents: 0,
      materialsCents: 4250,
      subtotalCents: 15500,
      transactionFeeCents: 0,
      totalCents: 15500,
      platformFeeCents: 1550,
      workerShareCents: 13950,
    });
  });

  it('charges the rush fee as labour the platform takes its rate of, and adds the card fee on the whole charge', () => {
    // Act
    const amounts = invoiceAmounts({
      laborHours: 2.5,
      hourlyRateCents: 4500,
      rushCents: 2500,
      materialsCents: 4250,
      feePercent: 10,
      cardFee: { percent: 2.9, fixedCents: 30 },
    });

    // Assess
    expect(amounts.subtotalCents).toBe(18000); // 112.50 + 25.00 + 42.50
    expect(amounts.platformFeeCents).toBe(1800);
    expect(amounts.workerShareCents).toBe(16200);
    expect(amounts.transactionFeeCents).toBe(569); // ceil((180.00 + 0.30) / 0.971) = 185.69
    expect(amounts.totalCents).toBe(18569);
  });

  it('leaves the card fee off a crew line, whose bill carries the one charge\'s fee', () => {
    const amounts = invoiceAmounts({ laborHours: 1, hourlyRateCents: 5000, rushCents: 2500, materialsCents: 0, feePercent: 10, cardFee: null });

    expect(amounts.transactionFeeCents).toBe(0);
    expect(amounts.totalCents).toBe(7500);
  });

  it('rounds the fee to the nearest cent and gives the rest to the worker', () => {
    const amounts = invoiceAmounts({ laborHours: 1.3, hourlyRateCents: 3333, materialsCents: 1, feePercent: 15 });

    expect(amounts.totalCents).toBe(4334); // 1.3 x 33.33 = 43.329 -> 43.33, + 0.01
    expect(amounts.platformFeeCents).toBe(650); // 15% of 43.34 = 6.501
    expect(amounts.workerShareCents).toBe(3684);
  });

  it('always splits the total exactly into worker share and fee, to the cent, over random hours, rates, materials and fee rates', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = generator(seed);
      for (let i = 0; i < 500; i++) {
        // Prepare
        const laborHours = roundHours(0.1 + random() * 80);
        const hourlyRateCents = 1500 + Math.floor(random() * 18_501);
        const materialsCents = random() < 0.3 ? 0 : Math.floor(random() * 500_000);
        const feePercent = Math.round(random() * 1000) / 10;
        const rushCents = random() < 0.5 ? 0 : 2500;
        const cardFee = random() < 0.3 ? null : { percent: 2.9, fixedCents: 30 };

        // Act
        const a = invoiceAmounts({ laborHours, hourlyRateCents, rushCents, materialsCents, feePercent, cardFee });

        // Assess
        const context = `seed ${seed}, case ${i}: ${JSON.stringify({ laborHours, hourlyRateCents, rushCents, materialsCents, feePercent, cardFee })}`;
        expect(Number.isInteger(a.totalCents) && Number.isInteger(a.platformFeeCents) && Number.isInteger(a.workerShareCents), context).toBe(true);
        expect(a.workerShareCents + a.platformFeeCents, context).toBe(a.subtotalCents);
        expect(a.subtotalCents, context).toBe(a.laborCents + rushCents + materialsCents);
        expect(a.totalCents, context).toBe(a.subtotalCents + a.transactionFeeCents);
        // The card fee covers the processor's cut of the whole charge, to the cent.
        if (cardFee) expect(a.totalCents - Math.ceil((a.totalCents * cardFee.percent) / 100 + cardFee.fixedCents - 1e-9), context).toBeGreaterThanOrEqual(a.subtotalCents);
        else expect(a.transactionFeeCents, context).toBe(0);
        expect(Math.abs(a.laborCents - laborHours * hourlyRateCents), context).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(Math.abs(a.platformFeeCents - (a.subtotalCents * feePercent) / 100), context).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(a.workerShareCents, context).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('turns typed dollars into whole cents without float drift', () => {
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(1.005 * 1000)).toBe(100500);
  });
});

describe('invoice labels', () => {
  it("labels the list's payment status Paid, Payment Pending or, for anything unknown, Payment Failed", () => {
    expect(paymentListLabel('completed')).toBe('Paid');
    expect(paymentListLabel('paid')).toBe('Paid');
    expect(paymentListLabel('pending')).toBe('Payment Pending');
    expect(paymentListLabel('failed')).toBe('Payment Failed');
    expect(paymentListLabel('anything else')).toBe('Payment Failed');
  });

  it("labels the pay button by state: Paid, Processing..., Creating Payment..., or the amount", () => {
    expect(payButtonLabel('paid', 15500, false)).toBe('Paid');
    expect(payButtonLabel('processing', 15500, true)).toBe('Processing...');
    expect(payButtonLabel('pending', 15500, true)).toBe('Creating Payment...');
    expect(payButtonLabel('pending', 15500, false)).toBe('Pay $155.00');
    expect(payButtonLabel('failed', 5, false)).toBe('Pay $0.05');
  });

  it('numbers an invoice by the last 8 characters of its id, upper case', () => {
    expect(invoiceNumber('abcdefghijklmnopqrstuv')).toBe('OPQRSTUV');
  });
});
