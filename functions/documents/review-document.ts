import { isPastExpiry } from '../../shared/domain/documents';
import { routeByName } from '../../shared/routes';
import { todayUtc } from '../../shared/schemas/document-rules';
import { documentReviewSchema } from '../../shared/schemas/documents';
import { documentsRepo, type DocumentItem } from './data/documents';
import { documentNotFound, resumeOffersFor, toDocumentView } from './documents';
import { ConflictError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { notify } from '../realtime/realtime';

/** Why a document cannot be decided on now. */
function notReviewable(doc: DocumentItem): ConflictError {
  if (!doc.isLatestVersion) return new ConflictError('A newer version of this document was uploaded: review that one.');
  if (doc.status === 'expired' || isPastExpiry(doc.expirationDate, todayUtc())) {
    return new ConflictError('This document has expired: the worker needs to upload a current one.');
  }
  return new ConflictError(`This document was already ${doc.status === 'approved' ? 'approved' : 'rejected'}.`);
}

async function tellWorker(doc: DocumentItem): Promise<void> {
  const approved = doc.status === 'approved';
  await notify('worker', doc.workerId, {
    type: approved ? 'document_approved' : 'document_rejected',
    title: approved ? 'Document approved' : 'Document rejected',
    message: approved
      ? `Your ${doc.categoryName} was approved.`
      : `Your ${doc.categoryName} was rejected: ${doc.reviewNotes ?? ''} Please upload a new one.`.trim(),
    priority: approved ? 'medium' : 'high',
    actionUrl: '/worker/dashboard',
    jobId: null,
  });
}

/**
 * The owner approves or rejects a document awaiting review (notes required to reject); of two
 * decisions at once one wins, the other gets 409. Approving a valid document of a category whose
 * expiry paused the worker's offers lifts that pause. The worker is notified either way.
 */
export const handler = http(routeByName('review-document'), documentReviewSchema, async ({ body, params, caller }) => {
  const id = params.id;
  const at = new Date().toISOString();
  const status = body.decision === 'approve' ? 'approved' : 'rejected';
  const reviewed = await documentsRepo.review(id, { status, notes: body.notes || null, ownerId: caller.id, at, today: todayUtc() });
  if (!reviewed) {
    const doc = await documentsRepo.findById(id);
    throw !doc || doc.deletedAt ? documentNotFound() : notReviewable(doc);
  }
  const resumed = status === 'approved' ? await resumeOffersFor(reviewed, at) : undefined;
  logger.info('Document reviewed', { documentId: id, workerId: reviewed.workerId, status, offersResumed: Boolean(resumed) });
  await tellWorker(reviewed);
  return { document: toDocumentView(reviewed) };
});
