import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EXPIRING_SOON_DAYS,
  type DocumentCategoriesResponse,
  type DocumentDownload,
  type DocumentListResponse,
  type DocumentUploadInput,
  type DocumentUploadTicket,
  type DocumentView,
  type DownloadMode,
} from '../../../../shared/schemas/documents';
import { shownMessage } from '../../components/documents/document-display';
import { toast } from '../../components/ui/toast-store';
import { apiRequest } from '../../lib/api';
import { sendToStorage } from '../../lib/upload';
import { documentName, documentsUrl, type DocumentFilters } from './document-filters';
import { clearWorkerSession, getWorkerSession } from './session';
import { isUnauthorized } from './worker-api';

/** The worker's document calls (issue 7 contract), all with the worker's bearer token. */

const enc = encodeURIComponent;

export const documentKeys = {
  all: ['/api/documents'] as const,
  categories: ['/api/documents/categories'] as const,
  list: (filters: DocumentFilters) => ['/api/documents', 'list', filters] as const,
  expiring: ['/api/documents', 'expiring', EXPIRING_SOON_DAYS] as const,
};

const urls = {
  categories: '/api/documents/categories',
  expiring: `/api/documents/expiring/${EXPIRING_SOON_DAYS}`,
  upload: '/api/documents/upload',
  confirm: (uploadId: string) => `/api/documents/uploads/${enc(uploadId)}/confirm`,
  document: (id: string) => `/api/documents/${enc(id)}`,
  download: (id: string, mode: DownloadMode) => `/api/documents/${enc(id)}/download?mode=${mode}`,
};

/** Like workerCall, with DELETE too: a 401 ends the stored session, as everywhere on the dashboard. */
async function documentsCall<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  try {
    return await apiRequest<T>(method, url, body, { token: getWorkerSession().token, signal });
  } catch (error) {
    if (isUnauthorized(error)) clearWorkerSession();
    throw error;
  }
}

export function useDocumentCategories() {
  return useQuery<DocumentCategoriesResponse>({
    queryKey: documentKeys.categories,
    queryFn: ({ signal }) => documentsCall<DocumentCategoriesResponse>('GET', urls.categories, undefined, signal),
  });
}

export function useDocuments(filters: DocumentFilters) {
  return useQuery<DocumentListResponse>({
    queryKey: documentKeys.list(filters),
    queryFn: ({ signal }) => documentsCall<DocumentListResponse>('GET', documentsUrl(filters), undefined, signal),
    staleTime: 0,
    // A new filter shows the previous list until its own arrives, rather than a skeleton flash.
    placeholderData: (previous) => previous,
  });
}

export function useExpiringDocuments() {
  return useQuery<DocumentListResponse>({
    queryKey: documentKeys.expiring,
    queryFn: ({ signal }) => documentsCall<DocumentListResponse>('GET', urls.expiring, undefined, signal),
    staleTime: 0,
  });
}

/**
 * One upload, three steps: a presigned POST for exactly this file, the bytes straight to storage
 * (real progress), then the confirm, where the server checks what arrived and records it.
 */
export async function uploadDocument(
  body: DocumentUploadInput,
  file: File,
  onProgress: (percent: number) => void,
  onSent: () => void,
  signal?: AbortSignal,
): Promise<DocumentView> {
  const ticket = await documentsCall<DocumentUploadTicket>('POST', urls.upload, body, signal);
  await sendToStorage(ticket, file, onProgress, signal, 'Upload failed');
  onSent();
  const { document } = await documentsCall<{ document: DocumentView }>('POST', urls.confirm(ticket.uploadId), undefined, signal);
  return document;
}

/**
 * DELETE /api/documents/{id}. The toasts live here, not with the caller: the refetch that follows
 * removes the deleted card, and a callback given to mutate() is dropped once its caller unmounts.
 */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: DocumentView) => documentsCall<{ success: true }>('DELETE', urls.document(document.id)),
    onSuccess: (_answer, document) => toast({ title: 'Document Deleted', description: `${documentName(document)} was deleted.` }),
    onError: (error) => toast({ title: 'Delete Failed', description: shownMessage(error, 'Delete failed'), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: documentKeys.all }),
  });
}

export const fetchDocumentLink = (id: string, mode: DownloadMode) => documentsCall<DocumentDownload>('GET', urls.download(id, mode));
