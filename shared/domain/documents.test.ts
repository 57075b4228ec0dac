import { describe, expect, it } from 'vitest';
import { documentCategoryById, isRequiredOf, retentionPeriods } from '../document-categories';
import {
  addDays,
  daysUntil,
  expiresWithin,
  isPastExpiry,
  matchesFormat,
  missingRequired,
  reminderDue,
  uploadProblems,
  type DocumentFacts,
} from './documents';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const insurance = documentCategoryById('liability-insurance')!;

describe('first bytes against the declared format', () => {
  it.each([
    ['pdf', text('%PDF-1.4 ...')],
    ['png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)],
    ['jpg', bytes(0xff, 0xd8, 0xff, 0xdb)],
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe1)],
    ['docx', bytes(0x50, 0x4b, 0x03, 0x04, 0x14)],
    ['doc', bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)],
    ['txt', text('Plain words, é and all')],
  ] as const)('accepts a real %s', (format, head) => {
    expect(matchesFormat(format, head)).toBe(true);
  });

  it.each([
    ['pdf', text('<html>%PDF-')],
    ['png', text('<!doctype html>')],
    ['jpg', bytes(0xff, 0xd8)],
    ['docx', text('PK')],
    ['doc', bytes(0xd0, 0xcf, 0x11, 0xe0)],
    ['txt', bytes(0x61, 0x00, 0x62)],
    ['txt', bytes()],
  ] as const)('refuses a fake or truncated %s', (format, head) => {
    expect(matchesFormat(format, head)).toBe(false);
  });
});

describe('upload rules of a category', () => {
  it('accepts a PDF within the size with its date', () => {
    expect(uploadProblems(insurance, { filename: 'Cert.PDF', contentType: 'application/pdf', fileSize: 1000, expirationDate: '2031-01-01' })).toEqual({});
  });

  it('names every problem by field', () => {
    expect(uploadProblems(insurance, { filename: 'cert.jpg', contentType: 'image/png', fileSize: 11 * 1024 * 1024 })).toEqual({
      contentType: 'A .jpg file is sent as image/jpeg; choose the original file.',
      fileSize: 'The file is larger than 10 MB. Choose a smaller file.',
      expirationDate: 'General liability insurance certificate needs its expiration date.',
    });
  });
});

describe('expiry arithmetic (UTC calendar days)', () => {
  it('counts days and adds them across month ends', () => {
    expect(daysUntil('2026-12-01', '2026-11-22')).toBe(9);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('treats a document as valid through its date and expired from the day after', () => {
    expect(isPastExpiry('2026-11-22', '2026-11-22')).toBe(false);
    expect(isPastExpiry('2026-11-21', '2026-11-22')).toBe(true);
    expect(isPastExpiry(null, '2026-11-22')).toBe(false);
  });

  it('calls a document expiring soon within 30 days, not once past', () => {
    expect(expiresWithin('2026-12-22', '2026-11-22')).toBe(true);
    expect(expiresWithin('2026-12-23', '2026-11-22')).toBe(false);
    expect(expiresWithin('2026-11-21', '2026-11-22')).toBe(false);
  });

  it('is due a 30-day reminder once, then a 7-day one once', () => {
    const none = { reminded30: false, reminded7: false };
    expect(reminderDue('2026-12-22', '2026-11-22', none)).toBe(30);
    expect(reminderDue('2026-12-22', '2026-11-22', { reminded30: true, reminded7: false })).toBeUndefined();
    expect(reminderDue('2026-11-29', '2026-11-22', { reminded30: true, reminded7: false })).toBe(7);
    expect(reminderDue('2026-11-29', '2026-11-22', none)).toBe(7);
    expect(reminderDue('2026-11-29', '2026-11-22', { reminded30: true, reminded7: true })).toBeUndefined();
    expect(reminderDue('2026-12-23', '2026-11-22', none)).toBeUndefined();
  });
});

describe('required categories', () => {
  const doc = (categoryId: string, status: DocumentFacts['status'], expirationDate: string | null = null): DocumentFacts => ({
    id: categoryId,
    categoryId,
    status,
    expirationDate,
    isLatestVersion: true,
    deleted: false,
  });

  it('asks the trade license only of licensed trades', () => {
    const license = documentCategoryById('trade-license')!;
    expect(isRequiredOf(license, ['plumbing'])).toBe(true);
    expect(isRequiredOf(license, ['cleaning', 'handyman'])).toBe(false);
  });

  it('counts pending and approved documents as held, rejected and expired ones as missing', () => {
    const required = [documentCategoryById('government-id')!, documentCategoryById('w9')!, insurance];
    const docs = [doc('government-id', 'pending_review', '2030-01-01'), doc('w9', 'rejected'), doc('liability-insurance', 'approved', '2020-01-01')];

    expect(missingRequired(required, docs, '2026-11-22').map((c) => c.id)).toEqual(['w9', 'liability-insurance']);
  });

  it('keeps retention periods for the categories a record-keeping rule covers', () => {
    expect(retentionPeriods()).toEqual([3, 4, 5]);
    expect(documentCategoryById('government-id')?.retentionYears).toBeUndefined();
  });
});
