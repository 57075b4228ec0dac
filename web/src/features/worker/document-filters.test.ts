import { describe, expect, it } from 'vitest';
import type { DocumentCategoryView, DocumentView } from '../../../../shared/schemas/documents';
import { documentName, documentsUrl, hasFilters, missingRequired, noFilters, workerCategories } from './document-filters';

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
  ({ id: `${categoryId}-${status}`, categoryId, status, isLatestVersion: true, filename: 'f.pdf', displayName: null, ...over }) as DocumentView;

describe('documentsUrl', () => {
  it('sends only the filters that are set', () => {
    expect(documentsUrl(noFilters)).toBe('/api/documents');
    expect(hasFilters(noFilters)).toBe(false);
    const filters = { categoryId: 'cat 1', status: 'pending_review', documentType: 'tax' } as const;
    expect(documentsUrl(filters)).toBe('/api/documents?categoryId=cat+1&status=pending_review&documentType=tax');
    expect(documentsUrl({ ...noFilters, documentType: 'legal' })).toBe('/api/documents?documentType=legal');
    expect(hasFilters({ ...noFilters, status: 'expired' })).toBe(true);
  });
});

describe('missingRequired', () => {
  const categories = [
    category('id'),
    category('insurance'),
    category('w9', { documentType: 'tax' }),
    category('certs', { isRequired: false }),
    category('customer-only', { userType: 'customer' }),
  ];

  it('lists required worker categories without a standing document', () => {
    expect(missingRequired(categories, []).map((c) => c.id)).toEqual(['id', 'insurance', 'w9']);
    expect(missingRequired(categories, [doc('id', 'pending_review'), doc('w9', 'approved')]).map((c) => c.id)).toEqual(['insurance']);
  });

  it('counts a rejected or expired document, or an old version, as missing', () => {
    const documents = [doc('id', 'rejected'), doc('insurance', 'expired'), doc('w9', 'approved', { isLatestVersion: false })];
    expect(missingRequired(categories, documents).map((c) => c.id)).toEqual(['id', 'insurance', 'w9']);
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
