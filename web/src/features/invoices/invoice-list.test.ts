import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../../lib/api';
import { invoiceAudience, invoiceDate, invoicePageText, listLoadProblem, nextInvoicePage } from './invoice-list';

describe('invoiceDate', () => {
  it('shows the day of a readable date and a dash otherwise', () => {
    expect(invoiceDate('2026-03-04T10:00:00.000Z')).toMatch(/2026/);
    expect(invoiceDate('not a date')).toBe('—');
  });
});

describe('listLoadProblem', () => {
  it("says the list did not load, with the server's message when it sent one", () => {
    // Prepare
    const refused = apiErrorFrom(403, 'Forbidden', JSON.stringify({ error: 'Forbidden', message: 'Not allowed' }));

    // Act
    const problem = listLoadProblem(refused);

    // Assess
    expect(problem).toEqual({ message: 'Could not load the invoices', detail: 'Not allowed' });
  });

  it('names the status of a failure without a message', () => {
    expect(listLoadProblem(apiErrorFrom(500, 'Internal Server Error', '')).detail).toBe('The server answered 500.');
  });
});

describe('invoiceAudience', () => {
  it('puts a signed-in pro first, then the owner, else the customer, as the server does', () => {
    expect(invoiceAudience(true, true)).toBe('pro');
    expect(invoiceAudience(false, true)).toBe('owner');
    expect(invoiceAudience(false, false)).toBe('customer');
  });
});

describe('invoicePageText', () => {
  it("speaks to a pro about their own invoices and to the owner about everyone's, the customer as before", () => {
    expect(invoicePageText('pro').title).toBe('Your invoices');
    expect(invoicePageText('owner').title).toBe('All invoices');
    expect(invoicePageText('customer')).toMatchObject({ title: 'Invoices', emptyTitle: 'No invoices found' });
  });
});

describe('nextInvoicePage', () => {
  it('continues after the last invoice of a full page and stops after a short one', () => {
    expect(nextInvoicePage([{ id: 'a' }, { id: 'b' }], 2)).toBe('b');
    expect(nextInvoicePage([{ id: 'a' }], 2)).toBeUndefined();
    expect(nextInvoicePage([], 2)).toBeUndefined();
  });
});
