import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { routeByName } from '../../shared/routes';
import { uploadRequestSchema } from '../../shared/schemas/applications';
import { ValidationError } from '../common/errors';
import { reply, http } from '../common/http';
import { newId } from '../common/ids';
import { presignUpload } from '../common/storage';
import { takeCreation } from '../common/creation-limits';

const extensions: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };
const UPLOAD_WINDOW_SECONDS = 5 * 60;

/**
 * A presigned POST for one file of an allowed type, at most 10 MB, for 5 minutes, under a fresh
 * unguessable key (public: applicants have no account; rate limiting is at the API stage).
 */
export const handler = http(routeByName('create-upload'), uploadRequestSchema, async ({ body, event }) => {
  await takeCreation('upload', event);
  const extension = extensions[body.contentType];
  if (!extension) throw new ValidationError('This file type is not accepted here', { contentType: 'This file type is not accepted here' });
  const key = `uploads/${body.type}/${newId()}.${extension}`;
  const upload = await presignUpload({
    key,
    contentType: body.contentType,
    maxBytes: MAX_UPLOAD_BYTES,
    expiresInSeconds: UPLOAD_WINDOW_SECONDS,
  });
  return reply(201, { ...upload, maxBytes: MAX_UPLOAD_BYTES });
});
