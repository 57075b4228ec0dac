import { routeByName } from '../../shared/routes';
import { workerProfileSchema } from '../../shared/schemas/worker';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { toWorkerSelf } from './data/workers';
import { ValidationError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { objectExists, presignDownload } from '../common/storage';

const PHOTO_AGAIN = 'Upload the photo again';

/** A profile photo is an image uploaded as a profile photo (not, say, someone's ID document). */
async function checkedPhotoKey(key: string | undefined): Promise<string | undefined> {
  if (key === undefined) return undefined;
  if (!/^uploads\/profile-photos\/[A-Za-z0-9_-]{22}\.(jpg|jpeg|png)$/.test(key) || !(await objectExists(key))) {
    throw new ValidationError(PHOTO_AGAIN, { profilePhoto: PHOTO_AGAIN });
  }
  return key;
}

/** JSON, not multipart: the photo went straight to S3 first; its key comes here. */
export const handler = http(routeByName('update-worker-profile'), workerProfileSchema, async ({ body, caller }) => {
  const { profilePhoto, ...fields } = body;
  const profilePhotoKey = await checkedPhotoKey(profilePhoto);
  // The categories may have changed: dispatch must find the worker under the new ones only, and
  // the profile is saved with its index entries or not at all.
  const worker = await dispatchIndex.saveProfile(caller.worker.id, { ...fields, profilePhotoKey });
  logger.info('Worker profile updated', { workerId: worker.id });
  const photoUrl = worker.profilePhotoKey ? (await presignDownload(worker.profilePhotoKey)).url : null;
  return toWorkerSelf(worker, photoUrl);
});
