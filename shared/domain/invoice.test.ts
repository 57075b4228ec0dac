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
    expect(amounts).toEqual({ laborCents: 11250, materialsCents: 4250, totalCents: 15500, platformFeeCents: 1550, workerShareCents: 13950 });
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

        // Act
        const a = invoiceAmounts({ laborHours, hourlyRateCents, materialsCents, feePercent });

        // Assess
        const context = `seed ${seed}, case ${i}: ${JSON.stringify({ laborHours, hourlyRateCents, materialsCents, feePercent })}`;
        expect(Number.isInteger(a.totalCents) && Number.isInteger(a.platformFeeCents) && Number.isInteger(a.workerShareCents), context).toBe(true);
        expect(a.workerShareCents + a.platformFeeCents, context).toBe(a.totalCents);
        expect(a.totalCents, context).toBe(a.laborCents + materialsCents);
        expect(Math.abs(a.laborCents - laborHours * hourlyRateCents), context).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(Math.abs(a.platformFeeCents - (a.totalCents * feePercent) / 100), context).toBeLessThanOrEqual(0.5 + 1e-6);
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
