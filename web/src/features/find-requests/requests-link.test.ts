import { describe, expect, it } from 'vitest';
import { gatheredSummary, tokenFromHash } from './requests-link';

const token = 'Qm9va2luZ3NBcmVNaW5lQW5kT25seU1pbmVUb1JlYWQ';

describe('a requests link on the page it opens', () => {
  it('takes the secret from the fragment, and nothing that is not one', () => {
    expect(tokenFromHash(`#token=${token}`)).toBe(token);
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#token=short')).toBeNull();
    expect(tokenFromHash(`#other=${token}`)).toBeNull();
  });

  it('says what it brought, or that everything was here already', () => {
    expect(gatheredSummary({ gathered: { requests: 2, bookings: 1, invoices: 1 }, keptApart: false, requests: [] })).toBe(
      'We brought 2 requests, 1 booking, 1 invoice here. They are listed under Your Requests in this browser from now on.',
    );
    expect(gatheredSummary({ gathered: { requests: 0, bookings: 0, invoices: 0 }, keptApart: false, requests: [] })).toMatch(/^Everything made with this address was here already\./);
  });

  it('says when what the browser had stays apart, and how to bring it along', () => {
    expect(gatheredSummary({ gathered: { requests: 1, bookings: 0, invoices: 0 }, keptApart: true, requests: [] })).toMatch(
      /Requests this browser had before stay apart, because the link was asked for somewhere else: to bring them along too, ask for a link from this browser\.$/,
    );
  });
});
