import { routeByName } from '../../shared/routes';
import { applicationsRepo, companyDocuments, workerDocuments } from './data/applications';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { presignDownload } from '../common/storage';

const DOWNLOAD_SECONDS = 120;
const NOT_FOUND = 'No such document for this application.';

/** The S3 key of one document of a worker or company application, if it has it. */
async function documentKey(id: string, document: string): Promise<string | undefined> {
  if (Object.hasOwn(workerDocuments, document)) {
    const application = await applicationsRepo.findWorkerApplication(id);
    return application?.[workerDocuments[document as keyof typeof workerDocuments]];
  }
  if (Object.hasOwn(companyDocuments, document)) {
    const application = await applicationsRepo.findCompanyApplication(id);
    return application?.[companyDocuments[document as keyof typeof companyDocuments]] || undefined;
  }
  return undefined;
}

/** A presigned GET valid 2 minutes; each access is logged (ids only, never the URL). */
export const handler = http(routeByName('get-application-document'), async ({ params, caller }) => {
  const { id, document } = params;
  const key = await documentKey(id, document);
  if (!key) throw new NotFoundError(NOT_FOUND);
  const download = await presignDownload(key, DOWNLOAD_SECONDS);
  logger.info('Application document accessed', { applicationId: id, document, ownerId: caller.id });
  return download;
});
