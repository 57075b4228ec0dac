import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { CreateBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { makePrivateFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-file';

/**
 * A local S3 for the embedded runtime: path-style, SigV4 only, just the operations the marketplace
 * uses (buckets, PUT/GET/HEAD/DELETE of objects, browser POST uploads). Signatures, presigned-URL
 * expiry and POST policies are checked the way S3 checks them, so the production code (the real
 * client-s3, s3-presigned-post and s3-request-presigner) runs unchanged against it.
 *
 * Objects live at `<dir>/<bucket>/<key>`; their content type, metadata and ETag in
 * `<dir>/.meta/<bucket>/<key>.json`. Uploads are streamed to `<dir>/.tmp` and renamed into place.
 */

export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

export interface LocalS3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Largest request body accepted: the 10 MB upload limit plus room for the form around it. */
export const MAX_REQUEST_BYTES = 11 * 1024 * 1024;
const MAX_FORM_FIELDS_BYTES = 20 * 1024;
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;
const ALGORITHM = 'AWS4-HMAC-SHA256';
const DEFAULT_CONTENT_TYPE = 'binary/octet-stream';
const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Stored with the object and answered on GET/HEAD. */
const STORED_HEADERS = ['content-type', 'content-disposition', 'content-encoding', 'content-language', 'cache-control', 'expires'];
const RESPONSE_OVERRIDES: Record<string, string> = {
  'response-content-type': 'content-type',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
  'response-content-language': 'content-language',
  'response-cache-control': 'cache-control',
  'response-expires': 'expires',
};

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

const accessDenied = (message = 'Access Denied') => new S3Error(403, 'AccessDenied', message);
const tooLarge = (max: number) =>
  new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', {
    MaxSizeAllowed: String(max),
  });

interface ObjectMeta {
  headers: Record<string, string>;
  metadata: Record<string, string>;
  etag: string;
  size: number;
  lastModified: string;
  checksumCRC32?: string;
}

interface Target {
  bucket: string;
  key: string;
  rawPath: string;
  query: [string, string][];
}

/** A path-style S3 on a free loopback port, storing under `dir`. */
export async function startLocalS3(dir: string, credentials: LocalS3Credentials): Promise<LocalS3> {
  const root = path.resolve(dir);
  // Uploads hold ID images and documents: the folders and files are their owner's alone (0700, 0600).
  makePrivateFolder(root);
  // Half-written uploads of a stopped run are garbage.
  rmSync(path.join(root, '.tmp'), { recursive: true, force: true });
  mkdirSync(path.join(root, '.tmp'), { mode: PRIVATE_FOLDER_MODE });
  const store = new Store(root);

  const server: Server = createServer((req, res) => {
    handle(req, res, store, credentials).catch((error: unknown) => {
      if (!(error instanceof S3Error)) console.error('local S3:', error);
      sendError(req, res, error instanceof S3Error ? error : new S3Error(500, 'InternalError', String(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A client for the local S3 with the local runtime's fixed credentials. */
export function localS3Client(endpoint: string, credentials: LocalS3Credentials): S3Client {
  return new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
}

/** CreateBucket, accepting one that is already there. */
export async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if (!(error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou')) throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Routing

async function handle(req: IncomingMessage, res: ServerResponse, store: Store, credentials: LocalS3Credentials) {
  res.setHeader('x-amz-request-id', randomBytes(8).toString('hex').toUpperCase());
  const origin = req.headers.origin;
  const corsAllowed = origin !== undefined && LOCAL_ORIGIN.test(origin);
  if (corsAllowed) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'ETag, Location, x-amz-request-id');
    res.setHeader('Vary', 'Origin');
  }
  if (req.method === 'OPTIONS') return preflight(req, res, corsAllowed);

  const target = parseTarget(req.url ?? '/');
  const { bucket, key } = target;
  if (!bucket) throw new S3Error(501, 'NotImplemented', 'The local S3 does not list buckets');
  if (!BUCKET_NAME.test(bucket)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.');
  if (key) validateKey(key);
  const unsupported = target.query.find(([name]) => !/^(x-amz-|x-id$|response-)/i.test(name));
  if (unsupported) throw new S3Error(501, 'NotImplemented', `The local S3 does not implement ?${unsupported[0]}`);

  if (req.method === 'POST' && !key) return postObject(req, res, store, credentials, bucket);

  const { payloadHash } = authenticate(req, target, credentials);
  if (!key) {
    if (req.method === 'PUT') return createBucket(res, store, bucket);
    if (req.method === 'HEAD') {
      await store.requireBucket(bucket);
      return void res.end();
    }
    throw new S3Error(501, 'NotImplemented', `The local S3 does not implement ${req.method} on a bucket`);
  }
  await store.requireBucket(bucket);
  switch (req.method) {
    case 'PUT':
      return putObject(req, res, store, target, payloadHash);
    case 'GET':
    case 'HEAD':
      return getObject(req, res, store, target);
    case 'DELETE':
      await store.delete(bucket, key);
      res.statusCode = 204;
      return void res.end();
    default:
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }
}

function parseTarget(url: string): Target {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const rawQuery = q < 0 ? '' : url.slice(q + 1);
  const query: [string, string][] = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))];
    });
  const rest = rawPath.replace(/^\//, '');
  const slash = rest.indexOf('/');
  const bucket = decode(slash < 0 ? rest : rest.slice(0, slash));
  const key = slash < 0 ? '' : decode(rest.slice(slash + 1));
  return { bucket, key, rawPath, query };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
}

/** Keys map onto the file system, so no segment may climb out of (or alias within) the bucket. */
function validateKey(key: string): void {
  if (Buffer.byteLength(key) > 1024) throw new S3Error(400, 'KeyTooLongError', 'Your key is too long');
  const segments = key.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '' || s.includes('\0'))) {
    throw new S3Error(400, 'InvalidArgument', "The local S3 refuses keys with '..', '.' or empty path segments.", {
      ArgumentName: 'key',
    });
  }
  if (segments.some((s) => Buffer.byteLength(s) > 255)) {
    throw new S3Error(400, 'KeyTooLongError', 'A segment of your key is too long for the local S3');
  }
}

function preflight(req: IncomingMessage, res: ServerResponse, corsAllowed: boolean) {
  const method = req.headers['access-control-request-method'];
  if (!corsAllowed || !method || !['GET', 'HEAD', 'PUT', 'POST', 'DELETE'].includes(method)) {
    throw new S3Error(
      403,
      'AccessDenied',
      'CORSResponse: This CORS request is not allowed. The local S3 allows any http://localhost origin.',
    );
  }
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, PUT, POST, DELETE');
  const headers = req.headers['access-control-request-headers'];
  if (headers) res.setHeader('Access-Control-Allow-Headers', headers);
  res.setHeader('Access-Control-Max-Age', '3000');
  res.statusCode = 200;
  res.end();
}

function sendError(req: IncomingMessage, res: ServerResponse, error: S3Error) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = error.status;
  // An unread body of unknown or excessive size is not worth draining: close instead.
  if (!req.complete) res.setHeader('Connection', 'close');
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const extra = Object.entries(error.extra)
    .map(([name, value]) => `<${name}>${xml(value)}</${name}>`)
    .join('');
  res.setHeader('Content-Type', 'application/xml');
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${xml(error.message)}</Message>${extra}` +
      `<Resource>${xml((req.url ?? '/').split('?')[0] ?? '/')}</Resource>` +
      `<RequestId>${String(res.getHeader('x-amz-request-id'))}</RequestId></Error>`,
  );
}

const xml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

// ---------------------------------------------------------------------------------------------
// SigV4

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 encoding, as SigV4 wants it. */
const escapeUri = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `20260101T120000Z` → epoch ms (NaN when malformed). */
function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

interface Scope {
  date: string;
  region: string;
  service: string;
}

/** `AKID/20260101/us-east-1/s3/aws4_request`, checked against our key and the request date. */
function parseCredential(credential: string, amzDate: string, credentials: LocalS3Credentials, errorCode: string): Scope {
  const parts = credential.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request' || parts[3] !== 's3') {
    throw new S3Error(400, errorCode, `Error parsing the X-Amz-Credential parameter; the credential is mal-formed: ${credential}`);
  }
  const [accessKeyId, date, region, service] = parts as [string, string, string, string];
  if (accessKeyId !== credentials.accessKeyId) {
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', {
      AWSAccessKeyId: accessKeyId,
    });
  }
  if (date !== amzDate.slice(0, 8)) {
    throw new S3Error(400, errorCode, `Invalid credential date "${date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`);
  }
  return { date, region, service };
}

/** Checks header (Authorization) or query (presigned URL) SigV4; answers the payload hash to verify. */
function authenticate(req: IncomingMessage, target: Target, credentials: LocalS3Credentials): { payloadHash: string } {
  const header = req.headers.authorization;
  const param = (name: string) => target.query.find(([k]) => k === name)?.[1];
  let amzDate: string;
  let scope: Scope;
  let signedHeaders: string[];
  let signature: string;
  let payloadHash: string;
  let query = target.query;

  if (header) {
    if (!header.startsWith(`${ALGORITHM} `)) {
      throw new S3Error(400, 'InvalidRequest', `The authorization mechanism you have provided is not supported. Please use ${ALGORITHM}.`);
    }
    const fields = Object.fromEntries(
      header
        .slice(ALGORITHM.length + 1)
        .split(',')
        .map((part) => part.trim().split('=') as [string, string]),
    ) as Record<string, string | undefined>;
    if (!fields.Credential || !fields.SignedHeaders || !fields.Signature) {
      throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
    }
    amzDate = String(req.headers['x-amz-date'] ?? '');
    const at = parseAmzDate(amzDate);
    if (Number.isNaN(at)) throw accessDenied('AWS authentication requires a valid Date or x-amz-date header');
    if (Math.abs(Date.now() - at) > MAX_CLOCK_SKEW_MS) {
      throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
    }
    scope = parseCredential(fields.Credential, amzDate, credentials, 'AuthorizationHeaderMalformed');
    signedHeaders = fields.SignedHeaders.split(';');
    signature = fields.Signature;
    const hash = req.headers['x-amz-content-sha256'];
    if (typeof hash !== 'string') {
      throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
    }
    payloadHash = hash;
  } else if (param('X-Amz-Algorithm') !== undefined) {
    const error = (message: string) => new S3Error(400, 'AuthorizationQueryParametersError', message);
    if (param('X-Amz-Algorithm') !== ALGORITHM) throw error(`X-Amz-Algorithm only supports "${ALGORITHM}"`);
    const credential = param('X-Amz-Credential');
    const date = param('X-Amz-Date');
    const expires = param('X-Amz-Expires');
    const headers = param('X-Amz-SignedHeaders');
    const sig = param('X-Amz-Signature');
    if (!credential || !date || !expires || !headers || !sig) {
      throw error(
        'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
      );
    }
    amzDate = date;
    const at = parseAmzDate(date);
    if (Number.isNaN(at)) throw error(`X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd'T'HHmmss'Z'"`);
    const seconds = Number(expires);
    if (!Number.isInteger(seconds) || seconds < 0) throw error('X-Amz-Expires should be a number');
    if (seconds > MAX_PRESIGN_SECONDS) {
      throw error('X-Amz-Expires must be less than a week (in seconds) that is; 604800');
    }
    if (Date.now() > at + seconds * 1000) {
      throw new S3Error(403, 'AccessDenied', 'Request has expired', {
        Expires: new Date(at + seconds * 1000).toISOString(),
        ServerTime: new Date().toISOString(),
      });
    }
    if (at - Date.now() > MAX_CLOCK_SKEW_MS) throw accessDenied('Request is not valid yet');
    scope = parseCredential(credential, date, credentials, 'AuthorizationQueryParametersError');
    signedHeaders = headers.split(';');
    signature = sig;
    payloadHash = param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    query = query.filter(([k]) => k !== 'X-Amz-Signature');
  } else {
    throw accessDenied();
  }

  if (!signedHeaders.includes('host')) {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The host header must be signed.');
  }
  const canonicalQuery = query
    .map(([k, v]) => [escapeUri(k), escapeUri(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const key = signingKey(credentials.secretAccessKey, scope.date, scope.region, scope.service);
  // S3 signs the path encoded once per segment; accept it as the client sent it, too.
  const normalizedPath = target.rawPath
    .split('/')
    .map((segment) => escapeUri(decode(segment)))
    .join('/');
  let first: { canonicalRequest: string; stringToSign: string } | undefined;
  for (const uri of new Set([normalizedPath, target.rawPath])) {
    const canonicalRequest = [req.method, uri, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n');
    const stringToSign = [ALGORITHM, amzDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
    if (sameSignature(hmac(key, stringToSign).toString('hex'), signature)) return { payloadHash };
    first ??= { canonicalRequest, stringToSign };
  }
  throw new S3Error(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    { AWSAccessKeyId: credentials.accessKeyId, StringToSign: first?.stringToSign ?? '', CanonicalRequest: first?.canonicalRequest ?? '' },
  );
}

// ---------------------------------------------------------------------------------------------
// Storage

class Store {
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
  }

  private bucketDir(bucket: string) {
    return path.join(this.root, bucket);
  }

  dataPath(bucket: string, key: string) {
    const file = path.join(this.bucketDir(bucket), ...key.split('/'));
    // validateKey already refused '..'; this is the belt to its braces.
    if (!file.startsWith(this.bucketDir(bucket) + path.sep)) throw accessDenied();
    return file;
  }

  private metaPath(bucket: string, key: string) {
    return `${path.join(this.root, '.meta', bucket, ...key.split('/'))}.json`;
  }

  async requireBucket(bucket: string): Promise<void> {
    const found = await stat(this.bucketDir(bucket)).catch(() => undefined);
    if (!found?.isDirectory()) {
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
    }
  }

  /** True when it was made, false when it was there. */
  async createBucket(bucket: string): Promise<boolean> {
    try {
      await mkdir(this.bucketDir(bucket), { mode: PRIVATE_FOLDER_MODE });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  tempFile(): string {
    return path.join(this.tmpDir, randomUUID());
  }

  async commit(bucket: string, key: string, tempFile: string, meta: ObjectMeta): Promise<void> {
    const file = this.dataPath(bucket, key);
    const metaFile = this.metaPath(bucket, key);
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
        await mkdir(path.dirname(metaFile), { recursive: true, mode: PRIVATE_FOLDER_MODE });
        await rename(tempFile, file);
        break;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTEMPTY') {
          throw new S3Error(400, 'InvalidArgument', 'The local S3 cannot hold both a key and keys beneath it (a/b next to a/b/c).');
        }
        // A delete of the folder's last other key tidies the empty folders away (delete below), and
        // can do so between our making a folder and the next step: make them again.
        if (code === 'ENOENT' && attempt < 5) continue;
        throw error;
      }
    }
    const metaTemp = this.tempFile();
    await writeFile(metaTemp, JSON.stringify(meta), { mode: PRIVATE_FILE_MODE });
    for (let attempt = 1; ; attempt++) {
      try {
        await rename(metaTemp, metaFile);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw error;
        // Tidied away by a delete, as above.
        await mkdir(path.dirname(metaFile), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      }
    }
  }

  async read(bucket: string, key: string): Promise<{ file: string; meta: ObjectMeta } | undefined> {
    const file = this.dataPath(bucket, key);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) return undefined;
    const stored = await readFile(this.metaPath(bucket, key), 'utf8').then(
      (text) => JSON.parse(text) as ObjectMeta,
      () => undefined,
    );
    const meta: ObjectMeta = stored ?? {
      headers: { 'content-type': DEFAULT_CONTENT_TYPE },
      metadata: {},
      etag: `"${createHash('md5').update(await readFile(file)).digest('hex')}"`,
      size: found.size,
      lastModified: found.mtime.toISOString(),
    };
    return { file, meta: { ...meta, size: found.size } };
  }

  async delete(bucket: string, key: string): Promise<void> {
    const file = this.dataPath(bucket, key);
    const metaFile = this.metaPath(bucket, key);
    for (const f of [file, metaFile]) await unlink(f).catch(() => undefined);
    // Tidy the folders the key made, never the bucket itself.
    for (const [leaf, stop] of [
      [file, this.bucketDir(bucket)],
      [metaFile, path.join(this.root, '.meta', bucket)],
    ] as const) {
      let parent = path.dirname(leaf);
      while (parent.startsWith(stop + path.sep)) {
        if (!(await rmdir(parent).then(() => true, () => false))) break;
        parent = path.dirname(parent);
      }
    }
  }
}

async function createBucket(res: ServerResponse, store: Store, bucket: string) {
  if (!(await store.createBucket(bucket))) {
    throw new S3Error(
      409,
      'BucketAlreadyOwnedByYou',
      'Your previous request to create the named bucket succeeded and you already own it.',
      { BucketName: bucket },
    );
  }
  res.setHeader('Location', `/${bucket}`);
  res.end();
}

/** The body of a write, counted, hashed and streamed to a temp file. */
class Upload {
  readonly file: string;
  size = 0;
  private readonly out: WriteStream;
  private readonly md5: Hash = createHash('md5');
  private readonly sha256: Hash = createHash('sha256');
  private crc = 0;

  constructor(store: Store) {
    this.file = store.tempFile();
    this.out = createWriteStream(this.file, { mode: PRIVATE_FILE_MODE });
  }

  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    this.md5.update(chunk);
    this.sha256.update(chunk);
    this.crc = crc32(chunk, this.crc);
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async finish(): Promise<{ md5: Buffer; sha256: string; crc32: string }> {
    this.out.end();
    await once(this.out, 'finish');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(this.crc >>> 0);
    return { md5: this.md5.digest(), sha256: this.sha256.digest('hex'), crc32: crc.toString('base64') };
  }

  async discard(): Promise<void> {
    // Wait for the stream to let go of the file, or it may appear again after the removal.
    if (!this.out.closed) {
      const closed = once(this.out, 'close');
      this.out.destroy();
      await closed;
    }
    await rm(this.file, { force: true });
  }
}

function storedHeaders(headers: Record<string, string | string[] | undefined>) {
  const result: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue;
    const lower = name.toLowerCase();
    if (STORED_HEADERS.includes(lower)) result[lower] = value;
    else if (lower.startsWith('x-amz-meta-')) metadata[lower.slice('x-amz-meta-'.length)] = value;
  }
  // aws-chunked is how the body travelled, not how it is stored.
  if (result['content-encoding']) {
    const rest = result['content-encoding']
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && s !== 'aws-chunked');
    if (rest.length) result['content-encoding'] = rest.join(', ');
    else delete result['content-encoding'];
  }
  result['content-type'] ??= DEFAULT_CONTENT_TYPE;
  return { headers: result, metadata };
}

async function putObject(req: IncomingMessage, res: ServerResponse, store: Store, target: Target, payloadHash: string) {
  if (req.headers['x-amz-copy-source']) throw new S3Error(501, 'NotImplemented', 'The local S3 does not implement CopyObject');
  if (payloadHash.startsWith('STREAMING-') && payloadHash !== 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') {
    throw new S3Error(501, 'NotImplemented', `The local S3 does not implement ${payloadHash}`);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_REQUEST_BYTES) throw tooLarge(MAX_REQUEST_BYTES);
  const chunked = payloadHash === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' || /aws-chunked/.test(req.headers['content-encoding'] ?? '');
  const trailers: Record<string, string> = {};
  const upload = new Upload(store);
  let committed = false;
  try {
    let received = 0;
    const body = chunked ? decodeAwsChunked(req, trailers) : req;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > MAX_REQUEST_BYTES) throw tooLarge(MAX_REQUEST_BYTES);
      await upload.write(chunk);
    }
    const digest = await upload.finish();
    if (/^[0-9a-f]{64}$/.test(payloadHash) && payloadHash !== digest.sha256) {
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
    }
    const decodedLength = req.headers['x-amz-decoded-content-length'];
    if (chunked && decodedLength !== undefined && Number(decodedLength) !== upload.size) {
      throw new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
    }
    const contentMd5 = req.headers['content-md5'];
    if (contentMd5 && contentMd5 !== digest.md5.toString('base64')) {
      throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
    }
    const crc = trailers['x-amz-checksum-crc32'] ?? req.headers['x-amz-checksum-crc32'];
    if (typeof crc === 'string' && crc !== digest.crc32) {
      throw new S3Error(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
    }
    const etag = `"${digest.md5.toString('hex')}"`;
    await store.commit(target.bucket, target.key, upload.file, {
      ...storedHeaders(req.headers),
      etag,
      size: upload.size,
      lastModified: new Date().toISOString(),
      checksumCRC32: digest.crc32,
    });
    committed = true;
    res.setHeader('ETag', etag);
    if (typeof crc === 'string') res.setHeader('x-amz-checksum-crc32', crc);
    res.end();
  } finally {
    if (!committed) await upload.discard();
  }
}

/** `aws-chunked`: `<hex size>[;ext]\r\n<data>\r\n` … `0\r\n<trailers>\r\n\r\n`. */
async function* decodeAwsChunked(source: AsyncIterable<Buffer>, trailers: Record<string, string>): AsyncGenerator<Buffer> {
  const malformed = () => new S3Error(400, 'IncompleteBody', 'The aws-chunked body is malformed.');
  let buf: Buffer = Buffer.alloc(0);
  let remaining = -1; // -1: reading a size line; >0: data; 0 after the last chunk: trailers
  let last = false;
  for await (const chunk of source) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (last) {
        let eol: number;
        while ((eol = buf.indexOf('\r\n')) >= 0) {
          const line = buf.subarray(0, eol).toString('latin1');
          buf = buf.subarray(eol + 2);
          if (!line) return;
          const colon = line.indexOf(':');
          if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        break;
      }
      if (remaining < 0) {
        const eol = buf.indexOf('\r\n');
        if (eol < 0) {
          if (buf.length > 4096) throw malformed();
          break;
        }
        const size = Number.parseInt(buf.subarray(0, eol).toString('latin1').split(';')[0] ?? '', 16);
        if (!Number.isFinite(size) || size < 0) throw malformed();
        buf = buf.subarray(eol + 2);
        if (size === 0) {
          last = true;
          continue;
        }
        remaining = size;
      }
      if (remaining > 0) {
        if (!buf.length) break;
        const take = Math.min(remaining, buf.length);
        yield buf.subarray(0, take);
        buf = buf.subarray(take);
        remaining -= take;
      }
      if (remaining === 0) {
        if (buf.length < 2) break;
        if (buf[0] !== 0x0d || buf[1] !== 0x0a) throw malformed();
        buf = buf.subarray(2);
        remaining = -1;
      }
    }
  }
  if (!last) throw malformed();
}

async function getObject(req: IncomingMessage, res: ServerResponse, store: Store, target: Target) {
  const found = await store.read(target.bucket, target.key);
  if (!found) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: target.key });
  const { file, meta } = found;
  for (const [name, value] of Object.entries(meta.headers)) res.setHeader(name, value);
  for (const [name, value] of Object.entries(meta.metadata)) res.setHeader(`x-amz-meta-${name}`, value);
  for (const [param, value] of target.query) {
    const header = RESPONSE_OVERRIDES[param];
    if (header) res.setHeader(header, value);
  }
  res.setHeader('ETag', meta.etag);
  res.setHeader('Last-Modified', new Date(meta.lastModified).toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');

  let start = 0;
  let end = meta.size - 1;
  const range = req.headers.range;
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (m && (m[1] || m[2])) {
      if (m[1]) {
        start = Number(m[1]);
        if (m[2]) end = Math.min(Number(m[2]), meta.size - 1);
      } else {
        start = Math.max(0, meta.size - Number(m[2]));
      }
      if (start > end || start >= meta.size) {
        throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', { RangeRequested: range });
      }
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${meta.size}`);
    }
  }
  res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
  if (req.method === 'HEAD' || meta.size === 0) return void res.end();
  await pipeline(createReadStream(file, { start, end }), res);
}

// ---------------------------------------------------------------------------------------------
// Browser POST uploads

type MultipartEvent =
  | { type: 'part'; name: string; filename?: string; contentType?: string }
  | { type: 'data'; data: Buffer }
  | { type: 'end' };

/** A streaming multipart/form-data parser: feed it chunks, act on the events. */
export class MultipartParser {
  private buf: Buffer;
  private state: 'preamble' | 'boundary' | 'headers' | 'body' | 'done' = 'preamble';
  private readonly delimiter: Buffer;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    // The first boundary has no CRLF before it; pretend it had so one search finds them all.
    this.buf = Buffer.from('\r\n');
  }

  get finished() {
    return this.state === 'done';
  }

  push(chunk: Buffer): MultipartEvent[] {
    const events: MultipartEvent[] = [];
    if (this.state === 'done') return events;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const keep = this.delimiter.length - 1;
    for (;;) {
      if (this.state === 'preamble' || this.state === 'body') {
        const at = this.buf.indexOf(this.delimiter);
        if (at < 0) {
          const safe = this.buf.length - keep;
          if (safe > 0) {
            if (this.state === 'body') events.push({ type: 'data', data: this.buf.subarray(0, safe) });
            this.buf = this.buf.subarray(safe);
          }
          return events;
        }
        if (this.state === 'body') {
          if (at > 0) events.push({ type: 'data', data: this.buf.subarray(0, at) });
          events.push({ type: 'end' });
        }
        this.buf = this.buf.subarray(at + this.delimiter.length);
        this.state = 'boundary';
      }
      if (this.state === 'boundary') {
        // Transport padding (spaces, tabs) may follow a boundary before its CRLF.
        let i = 0;
        while (i < this.buf.length && (this.buf[i] === 0x20 || this.buf[i] === 0x09)) i++;
        if (this.buf.length < i + 2) return events;
        if (this.buf[i] === 0x2d && this.buf[i + 1] === 0x2d) {
          this.state = 'done';
          this.buf = Buffer.alloc(0);
          return events;
        }
        if (this.buf[i] !== 0x0d || this.buf[i + 1] !== 0x0a) throw malformedPost();
        this.buf = this.buf.subarray(i + 2);
        this.state = 'headers';
      }
      if (this.state === 'headers') {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.buf.length > 8192) throw malformedPost();
          return events;
        }
        const headers = new Map<string, string>();
        for (const line of this.buf.subarray(0, end).toString('utf8').split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
        this.buf = this.buf.subarray(end + 4);
        const disposition = headers.get('content-disposition') ?? '';
        const name = dispositionParam(disposition, 'name');
        if (name === undefined) throw malformedPost();
        events.push({
          type: 'part',
          name,
          filename: dispositionParam(disposition, 'filename'),
          contentType: headers.get('content-type'),
        });
        this.state = 'body';
      }
    }
  }
}

function dispositionParam(disposition: string, param: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${param}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(disposition);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? '').trim();
}

const malformedPost = () =>
  new S3Error(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');

interface PostPolicyResult {
  key: string;
  lengthRange?: [number, number];
}

type Condition = Record<string, unknown> | unknown[];

/** Signature, expiration and every condition of a browser-upload policy, as S3 evaluates them. */
function checkPostPolicy(
  fields: Map<string, string>,
  bucket: string,
  filename: string,
  credentials: LocalS3Credentials,
): PostPolicyResult {
  const policy = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  if (!policy || !signature) throw accessDenied();
  if (fields.get('x-amz-algorithm') !== ALGORITHM) {
    throw new S3Error(400, 'InvalidArgument', `POST requires the x-amz-algorithm field to be ${ALGORITHM}`);
  }
  const amzDate = fields.get('x-amz-date') ?? '';
  if (Number.isNaN(parseAmzDate(amzDate))) throw new S3Error(400, 'InvalidArgument', 'x-amz-date is not a valid date');
  const scope = parseCredential(fields.get('x-amz-credential') ?? '', amzDate, credentials, 'InvalidArgument');
  const expected = hmac(signingKey(credentials.secretAccessKey, scope.date, scope.region, scope.service), policy).toString('hex');
  if (!sameSignature(expected, signature)) {
    throw new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      { AWSAccessKeyId: credentials.accessKeyId, StringToSign: policy },
    );
  }
  const rawKey = fields.get('key');
  if (rawKey === undefined) throw new S3Error(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
  const key = rawKey.replaceAll('${filename}', filename);
  validateKey(key);

  const invalid = (why: string) => new S3Error(400, 'InvalidPolicyDocument', `Invalid Policy: ${why}`);
  let document: { expiration?: unknown; conditions?: unknown };
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as typeof document;
  } catch {
    throw invalid('Invalid JSON.');
  }
  if (typeof document.expiration !== 'string' || Number.isNaN(Date.parse(document.expiration))) {
    throw invalid('Policy missing expiration.');
  }
  if (Date.parse(document.expiration) < Date.now()) throw accessDenied('Invalid according to Policy: Policy expired.');
  if (!Array.isArray(document.conditions)) throw invalid('Policy missing conditions.');

  const value = (field: string) => {
    const name = field.replace(/^\$/, '').toLowerCase();
    return name === 'bucket' ? bucket : name === 'key' ? key : fields.get(name);
  };
  const covered = new Set<string>();
  let lengthRange: [number, number] | undefined;
  for (const condition of document.conditions as Condition[]) {
    const failed = () => accessDenied(`Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`);
    if (Array.isArray(condition)) {
      const [op, field, expectedValue] = condition as [unknown, unknown, unknown];
      const operator = String(op).toLowerCase();
      if (operator === 'content-length-range') {
        const min = Number(field);
        const max = Number(expectedValue);
        if (!Number.isFinite(min) || !Number.isFinite(max)) throw invalid('Invalid content-length-range.');
        lengthRange = [min, max];
        continue;
      }
      if (typeof field !== 'string' || !field.startsWith('$') || typeof expectedValue !== 'string') {
        throw invalid(`Invalid Condition: ${JSON.stringify(condition)}`);
      }
      covered.add(field.slice(1).toLowerCase());
      const actual = value(field);
      if (operator === 'eq') {
        if (actual !== expectedValue) throw failed();
      } else if (operator === 'starts-with') {
        if (expectedValue !== '' && !(actual ?? '').startsWith(expectedValue)) throw failed();
      } else {
        throw invalid(`Invalid Condition: ${JSON.stringify(condition)}`);
      }
    } else if (condition && typeof condition === 'object') {
      for (const [field, expectedValue] of Object.entries(condition)) {
        covered.add(field.toLowerCase());
        if (value(field) !== expectedValue) throw failed();
      }
    } else {
      throw invalid(`Invalid Condition: ${JSON.stringify(condition)}`);
    }
  }
  const extra = [...fields.keys()].filter(
    (name) => !covered.has(name) && !['policy', 'x-amz-signature', 'file'].includes(name) && !name.startsWith('x-ignore-'),
  );
  if (extra.length) throw accessDenied(`Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);
  return { key, lengthRange };
}

async function postObject(
  req: IncomingMessage,
  res: ServerResponse,
  store: Store,
  credentials: LocalS3Credentials,
  bucket: string,
) {
  const contentType = req.headers['content-type'] ?? '';
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) {
    throw new S3Error(412, 'PreconditionFailed', 'Bucket POST must be of the enclosure-type multipart/form-data', {
      Condition: 'Bucket POST must be of the enclosure-type multipart/form-data',
    });
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BYTES) throw tooLarge(MAX_REQUEST_BYTES);
  await store.requireBucket(bucket);

  const parser = new MultipartParser(boundary[1] ?? boundary[2] ?? '');
  const fields = new Map<string, string>();
  let fieldBytes = 0;
  let mode: 'field' | 'file' | 'skip' = 'skip';
  let field: { name: string; chunks: Buffer[] } | undefined;
  let checked: PostPolicyResult | undefined;
  let refused: S3Error | undefined;
  let upload: Upload | undefined;
  let fileDone = false;
  let received = 0;
  let committed = false;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > MAX_REQUEST_BYTES) throw tooLarge(MAX_REQUEST_BYTES);
      for (const event of parser.push(chunk)) {
        if (event.type === 'part') {
          if (fileDone || upload || refused) {
            mode = 'skip'; // S3 ignores whatever follows the file.
          } else if (event.name.toLowerCase() === 'file') {
            mode = 'file';
            // The fields came first, so the policy can be judged before a byte of the file is kept.
            try {
              checked = checkPostPolicy(fields, bucket, event.filename ?? '', credentials);
              upload = new Upload(store);
            } catch (error) {
              if (!(error instanceof S3Error)) throw error;
              refused = error;
              mode = 'skip';
            }
          } else {
            mode = 'field';
            field = { name: event.name.toLowerCase(), chunks: [] };
          }
        } else if (event.type === 'data') {
          if (mode === 'field' && field) {
            fieldBytes += event.data.length;
            if (fieldBytes > MAX_FORM_FIELDS_BYTES) {
              throw new S3Error(400, 'MaxPostPreDataLengthExceeded', 'Your POST request fields preceding the upload file were too large.');
            }
            field.chunks.push(event.data);
          } else if (mode === 'file' && upload) {
            // Past the policy's limit nothing more is kept, but the size is still counted.
            const max = checked?.lengthRange?.[1] ?? MAX_REQUEST_BYTES;
            if (upload.size + event.data.length > max) upload.size += event.data.length;
            else await upload.write(event.data);
          }
        } else {
          if (mode === 'field' && field && !fields.has(field.name)) {
            fields.set(field.name, Buffer.concat(field.chunks).toString('utf8'));
          }
          if (mode === 'file') fileDone = true;
          mode = 'skip';
          field = undefined;
        }
      }
    }
    if (!parser.finished) throw malformedPost();
    if (refused) throw refused;
    if (!upload || !checked || !fileDone) {
      throw new S3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.', {
        ArgumentName: 'file',
        ArgumentValue: '0',
      });
    }
    const digest = await upload.finish();
    if (checked.lengthRange) {
      const [min, max] = checked.lengthRange;
      if (upload.size > max) throw tooLarge(max);
      if (upload.size < min) {
        throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', {
          MinSizeAllowed: String(min),
        });
      }
    }
    const etag = `"${digest.md5.toString('hex')}"`;
    await store.commit(bucket, checked.key, upload.file, {
      ...storedHeaders(Object.fromEntries(fields)),
      etag,
      size: upload.size,
      lastModified: new Date().toISOString(),
      checksumCRC32: digest.crc32,
    });
    committed = true;

    const location = `http://${req.headers.host ?? '127.0.0.1'}/${bucket}/${checked.key.split('/').map(escapeUri).join('/')}`;
    res.setHeader('ETag', etag);
    res.setHeader('Location', location);
    const status = fields.get('success_action_status');
    if (status === '201') {
      res.statusCode = 201;
      res.setHeader('Content-Type', 'application/xml');
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Location>${xml(location)}</Location><Bucket>${xml(bucket)}</Bucket>` +
          `<Key>${xml(checked.key)}</Key><ETag>${xml(etag)}</ETag></PostResponse>`,
      );
    } else {
      res.statusCode = status === '200' ? 200 : 204;
      res.end();
    }
  } finally {
    if (!committed) await upload?.discard();
  }
}
