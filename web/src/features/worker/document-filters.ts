import { documentCategoryById, isRequiredOf } from '../../../../shared/document-categories';
import { coversCategory } from '../../../../shared/domain/documents';
import type { DocumentCategoryView, DocumentStatus, DocumentType, DocumentView } from '../../../../shared/schemas/documents';

/** The Documents tab's filters (category, status, document type); '' means any. */
export interface DocumentFilters {
  categoryId: string;
  status: DocumentStatus | '';
  documentType: DocumentType | '';
}

export const noFilters: DocumentFilters = { categoryId: '', status: '', documentType: '' };

export const hasFilters = (filters: DocumentFilters): boolean => Boolean(filters.categoryId || filters.status || filters.documentType);

/** GET /api/documents's query: only the filters that are set, in a fixed order (one cache entry per choice). */
export function documentListQuery(filters: DocumentFilters): Partial<Record<keyof DocumentFilters, string>> & {
  status?: DocumentStatus;
  documentType?: DocumentType;
} {
  return {
    ...(filters.categoryId ? { categoryId: filters.categoryId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.documentType ? { documentType: filters.documentType } : {}),
  };
}

/**
 * The required categories this worker holds no covering document of (the server's own rules:
 * a rejected, expired, past-dated or old version does not cover). Required is per trade: a trade
 * licence is asked of plumbers and electricians, not of cleaners; the category list says only
 * "required", so the shared catalogue decides for the worker's trades.
 */
export function missingRequired(
  categories: readonly DocumentCategoryView[],
  documents: readonly DocumentView[],
  trades: readonly string[],
  today: string,
): DocumentCategoryView[] {
  const required = categories.filter((category) => {
    if (category.userType === 'customer') return false;
    const known = documentCategoryById(category.id);
    return known ? isRequiredOf(known, trades) : category.isRequired;
  });
  // The list never holds deleted documents.
  return required.filter((category) => !documents.some((document) => document.categoryId === category.id && coversCategory({ ...document, deleted: false }, today)));
}

/** The categories a worker can upload to, in the server's display order. */
export function workerCategories(categories: readonly DocumentCategoryView[]): DocumentCategoryView[] {
  return categories.filter((category) => category.userType !== 'customer').sort((a, b) => a.displayOrder - b.displayOrder);
}

/** A document's name as the worker gave it, else its file's. */
export const documentName = (document: DocumentView): string => document.displayName || document.filename;
