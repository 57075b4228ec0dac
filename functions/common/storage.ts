import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { env } from './env';

/**
 * The one adapter for S3. Uploads never pass through a Lambda: the browser gets a presigned POST
 * bounded in type and size and uploads straight to the bucket, and reads through presigned GETs
 * that expire within minutes. A presigned POST stays valid after its file arrived, so what the
 * server checked or filed is copied to a key no POST is handed out for, and that key is what is
 * served. Locally S3_ENDPOINT points at the local S3 (infra/local/s3.ts).
 */

/** Created once per container; the endpoint is the only thing the local runtime changes. */
const s3 = new S3Client({
  region: env.AWS_REGION,
  endpoint: env.S3_ENDPOINT,
  forcePathStyle: env.S3_ENDPOINT !== undefined,
});

function uploadsBucket(): string {
  if (!env.UPLOADS_BUCKET) {
    throw new Error('UPLOADS_BUCKET must name the uploads bucket: set it on every function that uses functions/common/storage.ts');
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

/**
 * A presigned GET of one object, valid for `expiresInSeconds`; `response` sets the headers S3
 * answers it with (Content-Disposition for a download under the document's own name).
 */
export async function presignDownload(
  key: string,
  expiresInSeconds = 120,
  response: { contentDisposition?: string; contentType?: string } = {},
): Promise<PresignedDownload> {
  const expiresAt = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
  const command = new GetObjectCommand({
    Bucket: uploadsBucket(),
    Key: key,
    ResponseContentDisposition: response.contentDisposition,
    ResponseContentType: response.contentType,
  });
  const url = await getSignedUrl(s3, command, { expiresIn: expiresInSeconds });
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

function missing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

export interface StoredObject {
  size: number;
  contentType: string | undefined;
}

/** An object's size and type (HEAD), or undefined when it is not there. */
export async function headObject(key: string): Promise<StoredObject | undefined> {
  try {
    const out = await s3.send(new HeadObjectCommand({ Bucket: uploadsBucket(), Key: key }));
    return { size: out.ContentLength ?? 0, contentType: out.ContentType };
  } catch (error) {
    if (missing(error)) return undefined;
    throw error;
  }
}

/** The object holds more bytes than the reader accepts. */
export class ObjectTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`Object is larger than ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/**
 * The object's bytes, read with one GET (so they are one version of it, whatever is posted to the
 * key meanwhile), and its content type; throws once more than `maxBytes` came, so an object larger
 * than promised is never read to its end. Objects here are at most 10 MB.
 */
export async function readObject(key: string, maxBytes: number): Promise<{ bytes: Uint8Array; contentType: string | undefined }> {
  const out = await s3.send(new GetObjectCommand({ Bucket: uploadsBucket(), Key: key }));
  const body = out.Body as AsyncIterable<Uint8Array> | undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    for await (const chunk of body) {
      total += chunk.length;
      if (total > maxBytes) {
        (out.Body as { destroy?: () => void }).destroy?.();
        throw new ObjectTooLargeError(maxBytes);
      }
      chunks.push(chunk);
    }
  }
  return { bytes: Buffer.concat(chunks), contentType: out.ContentType };
}

/** Writes these bytes to a key the server chose (never one a presigned POST was handed out for). */
export async function putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: uploadsBucket(), Key: key, Body: bytes, ContentType: contentType }));
}

/**
 * Copies an object to another key of the bucket, with its content type: the bytes of one GET,
 * written with one PUT (objects here are at most 10 MB).
 */
export async function copyObject(from: string, to: string, maxBytes = MAX_UPLOAD_BYTES): Promise<void> {
  const { bytes, contentType } = await readObject(from, maxBytes);
  await putObject(to, bytes, contentType ?? 'binary/octet-stream');
}
