import { describe, expect, it } from 'vitest';
import { initialInvoiceValues, invoicePreview, placeInvoiceFields, validateInvoice, type InvoiceFormValues } from './invoice-form';

const RATE = 5000; // $50.00/hr

function values(overrides: Partial<InvoiceFormValues> = {}): InvoiceFormValues {
  return { laborHours: '2.0', materialsCost: '', notes: '', ...overrides };
}

describe('initialInvoiceValues', () => {
  it('prefills the billable hours with one decimal and leaves the rest empty', () => {
    expect(initialInvoiceValues(1.25)).toEqual({ laborHours: '1.3', materialsCost: '', notes: '' });
    expect(initialInvoiceValues(2)).toEqual({ laborHours: '2.0', materialsCost: '', notes: '' });
  });

  it('leaves the hours empty when the job has none recorded', () => {
    expect(initialInvoiceValues(null).laborHours).toBe('');
  });
});

describe('invoicePreview', () => {
  it('totals hours times the agreed rate plus materials, split by the configured fee', () => {
    // Prepare
    const typed = values({ laborHours: '2.5', materialsCost: '40.10' });
    // Act
    const preview = invoicePreview(typed, RATE, 10);
    // Assess
    expect(preview).toEqual({ laborCents: 12_500, rushCents: 0, materialsCents: 4010, subtotalCents: 16_510, transactionFeeCents: 0, totalCents: 16_510, platformFeeCents: 1651, workerShareCents: 14_859 });
  });

  it("adds the job's rush fee to the work the fee splits, as the server's invoice does", () => {
    // Prepare
    const typed = values({ laborHours: '2.0' });
    // Act
    const preview = invoicePreview(typed, RATE, 10, 2500);
    // Assess
    expect(preview).toMatchObject({ laborCents: 10_000, rushCents: 2500, subtotalCents: 12_500, platformFeeCents: 1250, workerShareCents: 11_250 });
  });

  it('counts blank materials as none', () => {
    expect(invoicePreview(values({ laborHours: '1.0' }), RATE, 20)?.totalCents).toBe(5000);
  });

  it('keeps the fee and the share adding up to the total when the fee rounds', () => {
    // Prepare
    const typed = values({ laborHours: '0.3', materialsCost: '0.05' });
    // Act
    const preview = invoicePreview(typed, 3333, 15);
    // Assess
    expect(preview).not.toBeNull();
    expect(preview!.platformFeeCents + preview!.workerShareCents).toBe(preview!.totalCents);
  });

  it('shows no figure while the hours or materials cannot be read', () => {
    expect(invoicePreview(values({ laborHours: '' }), RATE, 10)).toBeNull();
    expect(invoicePreview(values({ laborHours: 'abc' }), RATE, 10)).toBeNull();
    expect(invoicePreview(values({ materialsCost: '-5' }), RATE, 10)).toBeNull();
  });
});

describe('validateInvoice', () => {
  it('sends hours, materials in dollars and trimmed notes', () => {
    // Act
    const result = validateInvoice(values({ laborHours: '3.5', materialsCost: '12.50', notes: '  New valve  ' }));
    // Assess
    expect(result).toEqual({ ok: true, input: { laborHours: 3.5, materialsCost: 12.5, notes: 'New valve' } });
  });

  it('sends zero materials and no notes when those are left blank', () => {
    expect(validateInvoice(values())).toEqual({ ok: true, input: { laborHours: 2, materialsCost: 0 } });
  });

  it('refuses hours with more than one decimal, with the server’s message', () => {
    // Act
    const result = validateInvoice(values({ laborHours: '1.25' }));
    // Assess
    expect(result).toEqual({ ok: false, errors: { laborHours: 'Labour hours take one decimal at most' } });
  });

  it('refuses missing hours and hours outside 0.1 to 168', () => {
    expect(validateInvoice(values({ laborHours: '' }))).toEqual({ ok: false, errors: { laborHours: 'Labour hours must be a number' } });
    expect(validateInvoice(values({ laborHours: '0' }))).toMatchObject({ ok: false, errors: { laborHours: 'Labour hours must be at least 0.1' } });
    expect(validateInvoice(values({ laborHours: '168.1' }))).toMatchObject({ ok: false, errors: { laborHours: 'Labour hours can be at most 168' } });
  });

  it('refuses negative materials and fractions of a cent', () => {
    expect(validateInvoice(values({ materialsCost: '-1' }))).toMatchObject({ ok: false, errors: { materialsCost: 'Materials cannot be negative' } });
    expect(validateInvoice(values({ materialsCost: '1.005' }))).toMatchObject({ ok: false, errors: { materialsCost: 'Materials take cents at most (2 decimals)' } });
  });

  it('refuses notes over 1000 characters', () => {
    expect(validateInvoice(values({ notes: 'x'.repeat(1001) }))).toMatchObject({ ok: false, errors: { notes: 'Notes can be at most 1000 characters' } });
  });
});

describe('placeInvoiceFields', () => {
  it('keeps the form’s field messages and puts the others at the top', () => {
    // Act
    const placed = placeInvoiceFields({ laborHours: 'Too many', workerId: 'workerId is too long', _: 'Unknown field: rate' });
    // Assess
    expect(placed).toEqual({ laborHours: 'Too many', _: 'workerId is too long Unknown field: rate' });
  });
});
