import * as z from 'zod/mini';
import { MAX_EXPIRING_DAYS } from './document-rules';
import type { CompanyDocument, WorkerDocument } from './admin';
import { ID_PATTERN } from './id';
import { slugPattern } from './service';

/**
 * Path parameters: the schema of each route's `{…}` values, by the name the manifest gives it
 * (shared/routes.ts `params`). The handler stack checks them before the handler runs, so a
 * handler gets them typed and well formed; small enough that every function bundles them all.
 */

/** One id in a path; the message is what a route without an answer of its own (`missing`) says. */
export const idSchema = (name: string) => z.string().check(z.regex(ID_PATTERN, `${name} must be an id of 22 letters, digits, - or _`));

const DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_EXPIRING_DAYS}`;

const applicationDocuments = ['idFront', 'idBack', 'selfie', 'businessLicense', 'insuranceCertificate'] as const satisfies readonly (
  | WorkerDocument
  | CompanyDocument
)[];

export const paramSchemas = {
  id: z.object({ id: idSchema('id') }),
  jobId: z.object({ jobId: idSchema('jobId') }),
  workerId: z.object({ workerId: idSchema('workerId') }),
  uploadId: z.object({ uploadId: idSchema('uploadId') }),
  slug: z.object({ slug: z.string().check(z.maxLength(100, 'slug is too long'), z.regex(slugPattern, 'slug must be lower-case words joined by -')) }),
  applicationDocument: z.object({
    id: idSchema('id'),
    document: z.enum(applicationDocuments, { error: `document must be one of ${applicationDocuments.join(', ')}` }),
  }),
  days: z.object({
    days: z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, DAYS_MESSAGE)),
      z.pipe(
        z.transform((raw: string) => Number(raw)),
        z.number().check(z.gte(1, DAYS_MESSAGE), z.lte(MAX_EXPIRING_DAYS, DAYS_MESSAGE)),
      ),
    ),
  }),
};
