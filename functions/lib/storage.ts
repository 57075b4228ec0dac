import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { env } from './env';

/**
 * The one adapter for S3. Files never pass through a Lambda: the browser gets a presigned POST
 * bounded in type and size and uploads straight to the bucket, and reads through presigned GETs
 * that expire within minutes. Locally S3_ENDPOINT points at the local S3 (infra/local/s3.ts).
 */

/** Created once per container; the endpoint is the only thing the local runtime changes. */
const s3 = new S3Client({
  region: env.AWS_REGION,
  endpoint: env.S3_ENDPOINT,
  forcePathStyle: env.S3_ENDPOINT !== undefined,
});

function uploadsBucket(): string {
  if (!env.UPLOADS_BUCKET) {
    throw new Error('UPLOADS_BUCKET must name the uploads bucket: set it on every function that uses functions/lib/storage.ts');
  }
  return env.UPLOADS_BUCKET;
}

export interface UploadRequest {
  /** The exact object key the browser may write; nothing else is accepted. */
  key: string;
  /** The exact Content-Type the browser must send (and the object is stored with). */
  contentType: string;
  /** Largest file accepted, in bytes; empty files are refused too. */
  maxBytes: number;
  expiresInSeconds?: number;
}

export interface PresignedUpload {
  /** POST a multipart/form-data form here: every field of `fields`, then the file as `file`, last. */
  url: string;
  fields: Record<string, string>;
  key: string;
  /** ISO time after which S3 refuses the form. */
  expiresAt: string;
}

export interface PresignedDownload {
  url: string;
  /** ISO time after which S3 refuses the URL. */
  expiresAt: string;
}

/** A presigned POST for one key, one content type, 1..maxBytes bytes. */
export async function presignUpload({ key, contentType, maxBytes, expiresInSeconds = 300 }: UploadRequest): Promise<PresignedUpload> {
  if (key.includes('${filename}')) throw new Error('presignUpload needs an exact key, not a ${filename} template');
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error('presignUpload needs maxBytes as a whole number of at least 1');
  const expiresAt = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
  const { url, fields } = await createPresignedPost(s3, {
    Bucket: uploadsBucket(),
    Key: key,
    Conditions: [
      ['content-length-range', 1, maxBytes],
      ['eq', '$Content-Type', contentType],
      ['eq', '$key', key],
    ],
    Fields: { 'Content-Type': contentType },
    Expires: expiresInSeconds,
  });
  return { url, fields, key, expiresAt };
}

/** A presigned GET of one object, valid for `expiresInSeconds`. */
export async function presignDownload(key: string, expiresInSeconds = 120): Promise<PresignedDownload> {
  const expiresAt = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
  const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: uploadsBucket(), Key: key }), {
    expiresIn: expiresInSeconds,
  });
  return { url, expiresAt };
}

/**
 * Whether the browser's upload arrived (the "confirm" step). In AWS a missing key answers 404 only
 * to a caller that may list the bucket; otherwise 403, which is an error here, not a false.
 */
export async function objectExists(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: uploadsBucket(), Key: key }));
    return true;
  } catch (error) {
    if (error instanceof S3ServiceException && (error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)) return false;
    throw error;
  }
}

export async function deleteObject(key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: uploadsBucket(), Key: key }));
}
