import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ComplianceResponse,
  DocumentDownload,
  DocumentListResponse,
  DocumentReviewInput,
  DocumentView,
  DownloadMode,
  WorkerCompliance,
} from '../../../../shared/schemas/documents';
import { shownMessage } from '../../components/documents/document-display';
import { toast } from '../../components/ui/toast-store';
import { apiGet, apiPost } from '../../lib/api';
import { pollMs } from './types';

/**
 * The owner's document calls (issue 7 contract), on the owner's session cookie. Every key starts
 * with /api/admin/ so a 401 sends the dashboard back to the login like the other tabs.
 */
const enc = encodeURIComponent;

export const documentAdminKeys = {
  compliance: ['/api/admin/documents/compliance'] as const,
  documents: ['/api/admin/documents'] as const,
  pending: ['/api/admin/documents', 'pending_review'] as const,
  workers: ['/api/admin/workers/documents'] as const,
  worker: (workerId: string) => ['/api/admin/workers/documents', workerId] as const,
};

export function useCompliance() {
  return useQuery<ComplianceResponse>({
    queryKey: documentAdminKeys.compliance,
    queryFn: ({ signal }) => apiGet<ComplianceResponse>('/api/admin/documents/compliance', { signal }),
    refetchInterval: pollMs.workers,
    staleTime: 0,
  });
}

/** The review queue: every worker's latest documents waiting for the owner. */
export function usePendingDocuments() {
  return useQuery<DocumentListResponse>({
    queryKey: documentAdminKeys.pending,
    queryFn: ({ signal }) => apiGet<DocumentListResponse>('/api/admin/documents?status=pending_review', { signal }),
    refetchInterval: pollMs.pending,
    staleTime: 0,
  });
}

export function useWorkerCompliance(workerId: string) {
  return useQuery<WorkerCompliance>({
    queryKey: documentAdminKeys.worker(workerId),
    queryFn: ({ signal }) => apiGet<WorkerCompliance>(`/api/admin/workers/${enc(workerId)}/documents`, { signal }),
    staleTime: 0,
  });
}

/**
 * POST /api/admin/documents/{id}/review. The toasts live here: the refetch that follows takes the
 * card out of the review queue, and a callback given to mutate() is dropped once its caller unmounts.
 */
export function useReviewDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, review }: { id: string; review: DocumentReviewInput; label: string }) =>
      apiPost<{ document: DocumentView }>(`/api/admin/documents/${enc(id)}/review`, review),
    onSuccess: (_answer, { review, label }) =>
      toast(
        review.decision === 'approve'
          ? { title: 'Document Approved', description: `${label} is approved.` }
          : { title: 'Document Rejected', description: `${label} was rejected; the worker sees your notes.` },
      ),
    onError: (error) => toast({ title: 'Review Failed', description: shownMessage(error, 'Review failed'), variant: 'destructive' }),
    onSettled: () =>
      Promise.all(
        [documentAdminKeys.compliance, documentAdminKeys.documents, documentAdminKeys.workers].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

export const fetchAdminDocumentLink = (id: string, mode: DownloadMode) =>
  apiGet<DocumentDownload>(`/api/admin/documents/${enc(id)}/download?mode=${mode}`);
