import { MISSING_ID_DOCUMENTS } from '../../shared/schemas/application-rules';
import { applicationsRepo, type WorkerApplicationRecord } from './data/applications';
import { ConflictError, ValidationError } from '../common/errors';
import { reply } from '../common/http';
import { newId } from '../common/ids';
import { logger } from '../common/logger';
import { newWorkerApplication } from '../owner/owner-events';
import { copyObject, deleteObject, objectExists } from '../common/storage';

/** What the application calls share: the upload check and filing a worker application. */

export const APPLICATION_RECEIVED = "Application received. We'll review it and contact you within 2-3 business days.";

/**
 * The "confirm" step of an upload: an application may only name objects that were really uploaded,
 * under the folder its kind of upload goes to. `fields` maps each body field to the key it sent
 * (empty ones are skipped); a missing object is a 400 on that field.
 */
async function requireUploaded(
  fields: Record<string, string | undefined>,
  folder: 'worker-documents' | 'company-documents',
  message: string,
): Promise<void> {
  const named = Object.entries(fields).filter((e): e is [string, string] => Boolean(e[1]));
  const present = await Promise.all(
    named.map(([, key]) => (key.startsWith(`uploads/${folder}/`) ? objectExists(key) : Promise.resolve(false))),
  );
  const missing = named.filter((_, i) => !present[i]).map(([field]) => field);
  if (missing.length) throw new ValidationError(message, Object.fromEntries(missing.map((f) => [f, message])));
}

async function forget(keys: Iterable<string>): Promise<void> {
  await Promise.all(
    [...keys].map((key) => deleteObject(key).catch((error: Error) => logger.warn('Could not delete an application upload', { errorName: error?.name }))),
  );
}

/**
 * Files an application's uploads: checks they arrived (requireUploaded), copies each to
 * applications/<id>/, a prefix no presigned POST is handed out for, and has `store` save the
 * application naming the copies (`filed` maps an upload key to its copy's). The upload form stays
 * valid for minutes after the file arrived, so the owner must see what was there when the
 * application was filed, not what the form posts after. The uploads are deleted once it is stored;
 * the copies too when it is refused (a taken email), so the applicant can file again.
 */
export async function fileUploads<T>(
  applicationId: string,
  fields: Record<string, string | undefined>,
  folder: 'worker-documents' | 'company-documents',
  message: string,
  store: (filed: (uploadKey: string) => string) => Promise<T>,
): Promise<T> {
  await requireUploaded(fields, folder, message);
  const copies = new Map<string, string>();
  for (const [field, key] of Object.entries(fields)) {
    if (key && !copies.has(key)) copies.set(key, `applications/${applicationId}/${field}${key.slice(key.lastIndexOf('.'))}`);
  }
  await Promise.all([...copies].map(([from, to]) => copyObject(from, to)));
  let stored: T;
  try {
    stored = await store((key) => copies.get(key) ?? key);
  } catch (error) {
    if (error instanceof ConflictError) await forget(copies.values());
    throw error;
  }
  await forget(copies.keys());
  return stored;
}

/**
 * Checks the three identity images (under the body's own field names), files them, stores the
 * application with its email claim, and answers with the id only: never the SSN digits, never the keys.
 */
export async function fileWorkerApplication(record: WorkerApplicationRecord, documentFields: Record<string, string>) {
  await applicationsRepo.requireEmailFree('worker', record.emailAddress);
  const id = newId();
  const application = await fileUploads(id, documentFields, 'worker-documents', MISSING_ID_DOCUMENTS, (filed) =>
    applicationsRepo.createWorkerApplication({
      id,
      submittedAt: new Date().toISOString(),
      record: {
        ...record,
        photoIdFrontUrl: filed(record.photoIdFrontUrl),
        photoIdBackUrl: filed(record.photoIdBackUrl),
        selfieUrl: filed(record.selfieUrl),
      },
    }),
  );
  logger.info('Worker application received', { applicationId: application.id, source: record.source });
  // Only a call whose conditional put filed it gets here: a retry meets the taken email (409).
  await newWorkerApplication(application);
  return reply(201, { id: application.id, status: 'pending', message: APPLICATION_RECEIVED });
}
