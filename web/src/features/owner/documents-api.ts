import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DocumentReviewInput,
  DownloadMode,
  WorkerCompliance,
} from '../../../../shared/schemas/documents';
import { shownMessage } from '../../domain/documents/document-display';
import { toast } from '../../components/ui/toast-store';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { pollMs } from './types';
import { byCursor } from '../../lib/pages';

/**
 * The owner's document calls, on the owner's session cookie. Every key is under queryKeys.admin,
 * so a 401 sends the dashboard back to the login like the other tabs. The lists come a page at a
 * time (the server never reads every document for one answer); "Load more" fetches the next.
 */

/** Every worker's compliance row, a page of workers at a time (newest first). */
export function useCompliance() {
  return useInfiniteQuery({
    queryKey: queryKeys.compliance,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/documents/compliance', { query: { cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.workers,
    staleTime: 0,
  });
}

/** The review queue: every worker's latest documents waiting for the owner, newest first, a page at a time. */
export function usePendingDocuments() {
  return useInfiniteQuery({
    queryKey: queryKeys.pendingDocuments,
    queryFn: ({ pageParam, signal }) => api('GET /api/admin/documents', { query: { status: 'pending_review', cursor: pageParam }, signal }),
    ...byCursor,
    refetchInterval: pollMs.pending,
    staleTime: 0,
  });
}

export function useWorkerCompliance(workerId: string) {
  return useQuery<WorkerCompliance>({
    queryKey: queryKeys.workerCompliance(workerId),
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
      api('POST /api/admin/documents/{id}/review', { params: { id }, body: review }),
    onSuccess: (_answer, { review, label }) =>
      toast(
        review.decision === 'approve'
          ? { title: 'Document Approved', description: `${label} is approved.` }
          : { title: 'Document Rejected', description: `${label} was rejected; the worker sees your notes.` },
      ),
    onError: (error) => toast({ title: 'Review Failed', description: shownMessage(error, 'Review failed'), variant: 'destructive' }),
    onSettled: () =>
      Promise.all(
        // The worker lists are under adminWorkers too: a review can change who is compliant.
        [queryKeys.compliance, queryKeys.adminDocuments, queryKeys.adminWorkers].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

export const fetchAdminDocumentLink = (id: string, mode: DownloadMode) =>
  api('GET /api/admin/documents/{id}/download', { params: { id }, query: { mode } });
