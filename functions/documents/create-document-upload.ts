import { documentCategoryById } from '../../shared/document-categories';
import { maxBytesOf, uploadProblems } from '../../shared/domain/documents';
import { routeByName } from '../../shared/routes';
import { keys } from '../../shared/entities';
import { UPLOAD_POLICY_SECONDS, fileExtension, type DocumentFormat } from '../../shared/schemas/document-rules';
import { documentUploadSchema, type DocumentUploadInput, type DocumentUploadTicket } from '../../shared/schemas/documents';
import { documentUploadsRepo, documentsRepo, type DocumentUploadItem } from './data/documents';
import { documentNotFound, uploadKey } from './documents';
import { ValidationError } from '../common/errors';
import { reply, http } from '../common/http';
import { newId } from '../common/ids';
import { presignUpload } from '../common/storage';
import { takeCreation } from '../common/creation-limits';

/**
 * The upload item outlives its hour of confirmation by days: the daily purge needs it to find the
 * upload's file, abandoned or posted again with the form after the confirm.
 */
const INTENT_TTL_SECONDS = 3 * 24 * 60 * 60;

/** Checks the request against its category and the document it replaces; the field errors, as a 400. */
async function checkRequest(workerId: string, body: DocumentUploadInput) {
  const category = documentCategoryById(body.categoryId);
  if (!category || category.userType === 'customer') {
    throw new ValidationError('Choose a category from the list', { categoryId: 'Choose a category from the list' });
  }
  const problems = uploadProblems(category, body);
  const [field, message] = Object.entries(problems)[0] ?? [];
  if (field) throw new ValidationError(Object.keys(problems).length === 1 ? message! : 'Some fields need attention.', problems);
  if (body.replacesDocumentId) {
    const replaced = await documentsRepo.findOwn(workerId, body.replacesDocumentId);
    if (!replaced) throw documentNotFound();
    if (replaced.categoryId !== category.id || !replaced.isLatestVersion) {
      const message = 'Replace the latest version of a document of the same category';
      throw new ValidationError(message, { replacesDocumentId: message });
    }
  }
  return category;
}

/**
 * A presigned POST for one compliance document: the exact key under the worker's own prefix, the
 * exact content type of its format, 1 byte to the category's limit, for 5 minutes. The upload is
 * remembered for an hour, waiting for POST /api/documents/uploads/{uploadId}/confirm.
 */
export const handler = http(routeByName('create-document-upload'), documentUploadSchema, async ({ body, caller, event }) => {
  const workerId = caller.worker.id;
  const category = await checkRequest(workerId, body);
  await takeCreation('upload', event, `worker#${workerId}`);
  const uploadId = newId();
  const format = fileExtension(body.filename) as DocumentFormat;
  const maxBytes = maxBytesOf(category);
  const key = uploadKey(workerId, uploadId, format);
  const now = Date.now();
  const intent: DocumentUploadItem = {
    ...keys.documentUpload(uploadId),
    ...keys.openDocumentUploads(new Date(now).toISOString(), uploadId),
    entity: 'document-upload',
    uploadId,
    workerId,
    categoryId: category.id,
    filename: body.filename,
    contentType: body.contentType,
    format,
    maxBytes,
    key,
    displayName: body.displayName || null,
    description: body.description || null,
    expirationDate: body.expirationDate ?? null,
    replacesDocumentId: body.replacesDocumentId ?? null,
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + INTENT_TTL_SECONDS,
  };
  await documentUploadsRepo.create(intent);
  const upload = await presignUpload({ key, contentType: body.contentType, maxBytes, expiresInSeconds: UPLOAD_POLICY_SECONDS });
  const ticket: DocumentUploadTicket = { uploadId, url: upload.url, fields: upload.fields, key: upload.key, expiresAt: upload.expiresAt, maxBytes };
  return reply(201, ticket);
});
