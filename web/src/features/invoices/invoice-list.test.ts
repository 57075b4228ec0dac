import { describe, expect, it } from 'vitest';
import { apiErrorFrom } from '../../lib/api';
import { invoiceDate, listLoadProblem } from './invoice-list';

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
