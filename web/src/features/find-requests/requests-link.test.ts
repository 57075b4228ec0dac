import { describe, expect, it } from 'vitest';
import { gatheredSummary, linkedRequestLine, tokenFromHash } from './requests-link';

const token = 'Qm9va2luZ3NBcmVNaW5lQW5kT25seU1pbmVUb1JlYWQ';

describe('a requests link on the page it opens', () => {
  it('takes the secret from the fragment, and nothing that is not one', () => {
    expect(tokenFromHash(`#token=${token}`)).toBe(token);
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#token=short')).toBeNull();
    expect(tokenFromHash(`#other=${token}`)).toBeNull();
  });

  it('says what it brought, that what the browser had stays, or that everything was here already', () => {
    expect(gatheredSummary({ gathered: { requests: 2, bookings: 1, invoices: 1 } })).toBe(
      'We brought 2 requests, 1 booking, 1 invoice here. They are listed under Your Requests in this browser from now on, with the requests it had before.',
    );
    expect(gatheredSummary({ gathered: { requests: 0, bookings: 0, invoices: 0 } })).toMatch(/^Everything made with this address was here already\./);
  });

  it('names a request to confirm by its street line and the day it was made', () => {
    expect(linkedRequestLine({ place: '12 Alder Lane', createdAt: '2026-05-03T15:00:00.000Z' })).toMatch(/^12 Alder Lane, requested .*2026/);
  });
});
