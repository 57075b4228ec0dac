import type { DocumentCategoryView, DocumentStatus, DocumentType, DocumentView } from '../../../../shared/schemas/documents';

/** The Documents tab's filters (spec: category, status, document type); '' means any. */
export interface DocumentFilters {
  categoryId: string;
  status: DocumentStatus | '';
  documentType: DocumentType | '';
}

export const noFilters: DocumentFilters = { categoryId: '', status: '', documentType: '' };

export const hasFilters = (filters: DocumentFilters): boolean => Boolean(filters.categoryId || filters.status || filters.documentType);

/** GET /api/documents with only the filters that are set, in a fixed order (one cache entry per choice). */
export function documentsUrl(filters: DocumentFilters): string {
  const query = new URLSearchParams();
  if (filters.categoryId) query.set('categoryId', filters.categoryId);
  if (filters.status) query.set('status', filters.status);
  if (filters.documentType) query.set('documentType', filters.documentType);
  const search = query.toString();
  return search ? `/api/documents?${search}` : '/api/documents';
}

/** A document that still counts for its category: one waiting for review counts until refused. */
const standing: ReadonlySet<DocumentStatus> = new Set(['uploaded', 'pending_review', 'approved']);

/**
 * The required categories for workers with no standing document: none at all, or only rejected
 * or expired ones. Categories meant for customers alone are not the worker's to provide.
 */
export function missingRequired(categories: readonly DocumentCategoryView[], documents: readonly DocumentView[]): DocumentCategoryView[] {
  const covered = new Set(documents.filter((document) => document.isLatestVersion && standing.has(document.status)).map((document) => document.categoryId));
  return categories.filter((category) => category.isRequired && category.userType !== 'customer' && !covered.has(category.id));
}

/** The categories a worker can upload to, in the server's display order. */
export function workerCategories(categories: readonly DocumentCategoryView[]): DocumentCategoryView[] {
  return categories.filter((category) => category.userType !== 'customer').sort((a, b) => a.displayOrder - b.displayOrder);
}

/** A document's name as the worker gave it, else its file's. */
export const documentName = (document: DocumentView): string => document.displayName || document.filename;
