import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EXPIRING_SOON_DAYS,
  type DocumentCategoriesResponse,
  type DocumentListResponse,
  type DocumentUploadInput,
  type DocumentView,
  type DownloadMode,
} from '../../../../shared/schemas/documents';
import { shownMessage } from '../../domain/documents/document-display';
import { toast } from '../../components/ui/toast-store';
import { queryKeys } from '../../lib/query-keys';
import { sendToStorage } from '../../lib/upload';
import { documentListQuery, documentName, type DocumentFilters } from './document-filters';
import { workerCall, workerGet } from './worker-api';

/**
 * The worker's document calls, all with the worker's bearer token (a 401 ends the stored session,
 * as everywhere on the dashboard). Every key is under queryKeys.documents: one invalidation
 * refreshes the lists, the expiring ones and the categories.
 */

export function useDocumentCategories() {
  return useQuery<DocumentCategoriesResponse>({
    queryKey: queryKeys.documentCategories,
    queryFn: ({ signal }) => workerGet(queryKeys.documentCategories, signal),
  });
}

export function useDocuments(filters: DocumentFilters) {
  const queryKey = queryKeys.documentList(documentListQuery(filters));
  return useQuery<DocumentListResponse>({
    queryKey,
    queryFn: ({ signal }) => workerGet(queryKey, signal),
    staleTime: 0,
    // A new filter shows the previous list until its own arrives, rather than a skeleton flash.
    placeholderData: (previous) => previous,
  });
}

export function useExpiringDocuments() {
  return useQuery<DocumentListResponse>({
    queryKey: queryKeys.expiringDocuments(EXPIRING_SOON_DAYS),
    queryFn: ({ signal }) => workerGet(queryKeys.expiringDocuments(EXPIRING_SOON_DAYS), signal),
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
  const ticket = await workerCall('POST /api/documents/upload', { body, signal });
  await sendToStorage(ticket, file, onProgress, signal, 'Upload failed');
  onSent();
  const { document } = await workerCall('POST /api/documents/uploads/{uploadId}/confirm', { params: { uploadId: ticket.uploadId }, signal });
  return document;
}

/**
 * DELETE /api/documents/{id}. The toasts live here, not with the caller: the refetch that follows
 * removes the deleted card, and a callback given to mutate() is dropped once its caller unmounts.
 */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: DocumentView) => workerCall('DELETE /api/documents/{id}', { params: { id: document.id } }),
    onSuccess: (_answer, document) => toast({ title: 'Document Deleted', description: `${documentName(document)} was deleted.` }),
    onError: (error) => toast({ title: 'Delete Failed', description: shownMessage(error, 'Delete failed'), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents }),
  });
}

export const fetchDocumentLink = (id: string, mode: DownloadMode) =>
  workerCall('GET /api/documents/{id}/download', { params: { id }, query: { mode } });
