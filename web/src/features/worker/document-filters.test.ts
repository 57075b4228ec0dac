import { describe, expect, it } from 'vitest';
import type { DocumentCategoryView, DocumentView } from '../../../../shared/schemas/documents';
import { queryKeyUrl } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import { documentListQuery, documentName, hasFilters, missingRequired, noFilters, workerCategories } from './document-filters';

const category = (id: string, over: Partial<DocumentCategoryView> = {}): DocumentCategoryView => ({
  id,
  name: id,
  description: '',
  documentType: 'legal',
  userType: 'worker',
  isRequired: true,
  expirationRequired: false,
  maxFileSizeMB: 10,
  allowedFormats: ['pdf'],
  displayOrder: 1,
  ...over,
});
const doc = (categoryId: string, status: DocumentView['status'], over: Partial<DocumentView> = {}) =>
  ({ id: `${categoryId}-${status}`, categoryId, status, isLatestVersion: true, expirationDate: null, filename: 'f.pdf', displayName: null, ...over }) as DocumentView;

describe('documentListQuery', () => {
  it('sends only the filters that are set', () => {
    const documentsUrl = (filters: Parameters<typeof documentListQuery>[0]) => queryKeyUrl(queryKeys.documentList(documentListQuery(filters)));
    expect(documentsUrl(noFilters)).toBe('/api/documents');
    expect(hasFilters(noFilters)).toBe(false);
    const filters = { categoryId: 'cat 1', status: 'pending_review', documentType: 'tax' } as const;
    expect(documentsUrl(filters)).toBe('/api/documents?categoryId=cat%201&status=pending_review&documentType=tax');
    expect(documentsUrl({ ...noFilters, documentType: 'legal' })).toBe('/api/documents?documentType=legal');
    expect(hasFilters({ ...noFilters, status: 'expired' })).toBe(true);
  });
});

describe('missingRequired', () => {
  const today = '2026-11-22';
  const categories = [
    category('government-id'),
    category('trade-license'),
    category('w9', { documentType: 'tax' }),
    category('certifications', { isRequired: false }),
    category('customer-only', { userType: 'customer' }),
  ];

  it('lists required worker categories without a covering document', () => {
    expect(missingRequired(categories, [], ['plumbing'], today).map((c) => c.id)).toEqual(['government-id', 'trade-license', 'w9']);
    const held = [doc('government-id', 'pending_review'), doc('w9', 'approved')];
    expect(missingRequired(categories, held, ['plumbing'], today).map((c) => c.id)).toEqual(['trade-license']);
  });

  it('asks a trade licence only of the trades that need one', () => {
    expect(missingRequired(categories, [], ['cleaning'], today).map((c) => c.id)).toEqual(['government-id', 'w9']);
  });

  it('counts a rejected, expired, past-dated or old version as missing', () => {
    const documents = [
      doc('government-id', 'rejected'),
      doc('trade-license', 'approved', { expirationDate: '2026-11-21' }),
      doc('w9', 'approved', { isLatestVersion: false }),
    ];
    expect(missingRequired(categories, documents, ['plumbing'], today).map((c) => c.id)).toEqual(['government-id', 'trade-license', 'w9']);
    expect(missingRequired(categories, [doc('w9', 'expired')], ['cleaning'], today).map((c) => c.id)).toEqual(['government-id', 'w9']);
  });
});

describe('workerCategories and names', () => {
  it('keeps the worker’s categories in display order', () => {
    const list = [category('b', { displayOrder: 2 }), category('c', { userType: 'customer' }), category('a', { displayOrder: 1, userType: 'both' })];
    expect(workerCategories(list).map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('names a document by its display name, else its file', () => {
    expect(documentName(doc('id', 'approved', { displayName: 'Driver licence' }))).toBe('Driver licence');
    expect(documentName(doc('id', 'approved'))).toBe('f.pdf');
  });
});
