import { toCategoryView, workerDocumentCategories } from '../../shared/document-categories';
import { routeByName } from '../../shared/routes';
import type { DocumentCategoriesResponse } from '../../shared/schemas/documents';
import { http } from '../common/http';

/** The compliance document categories a worker uploads to, in display order (shared/document-categories.ts). */
export const handler = http(
  routeByName('list-document-categories'),
  async (): Promise<DocumentCategoriesResponse> => ({ categories: workerDocumentCategories().map(toCategoryView) }),
);
