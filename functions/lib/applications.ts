import { MISSING_ID_DOCUMENTS } from '../../shared/schemas/application-rules';
import { applicationsRepo, type WorkerApplicationRecord } from './data/applications';
import { ValidationError } from './errors';
import { reply } from './http';
import { newId } from './ids';
import { logger } from './logger';
import { objectExists } from './storage';

/** What the application calls share: the upload check and filing a worker application. */

export const APPLICATION_RECEIVED = "Application received. We'll review it and contact you within 2-3 business days.";

/**
 * The "confirm" step of an upload (DESIGN.md section 8): an application may only name objects
 * that were really uploaded, under the folder its kind of upload goes to. `fields` maps each body
 * field to the key it sent (empty ones are skipped); a missing object is a 400 on that field.
 */
export async function requireUploaded(
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

/**
 * Checks the three identity images (under the body's own field names), stores the application
 * with its email claim, and answers with the id only: never the SSN digits, never the keys.
 */
export async function fileWorkerApplication(record: WorkerApplicationRecord, documentFields: Record<string, string>) {
  await requireUploaded(documentFields, 'worker-documents', MISSING_ID_DOCUMENTS);
  const application = await applicationsRepo.createWorkerApplication({
    id: newId(),
    submittedAt: new Date().toISOString(),
    record,
  });
  logger.info('Worker application received', { applicationId: application.id, source: record.source });
  return reply(201, { id: application.id, status: 'pending', message: APPLICATION_RECEIVED });
}
