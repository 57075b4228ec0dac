import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPostOptions } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket, localS3Client, MultipartParser, startLocalS3, type LocalS3 } from './s3';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const bucket = 'test-uploads';
const TEN_MB = 10 * 1024 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), 'local-s3-'));
let s3: LocalS3;
let client: S3Client;

beforeAll(async () => {
  s3 = await startLocalS3(dir, credentials);
  client = localS3Client(s3.endpoint, credentials);
  await ensureBucket(client, bucket);
});

afterAll(async () => {
  client.destroy();
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

const png = (size = 64) => new Uint8Array(size).map((_, i) => i % 251);

async function presignPost(key: string, options: Partial<PresignedPostOptions> = {}, signer = client) {
  return createPresignedPost(signer, {
    Bucket: bucket,
    Key: key,
    Conditions: [
      ['content-length-range', 1, TEN_MB],
      ['eq', '$Content-Type', 'image/png'],
      ['starts-with', '$key', 'uploads/'],
    ],
    Fields: { 'Content-Type': 'image/png' },
    Expires: 300,
    ...options,
  });
}

/** What a browser sends: every field, then the file last. */
function postForm(url: string, fields: Record<string, string>, file: Uint8Array<ArrayBuffer>, type = 'image/png') {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file], { type }), 'photo.png');
  return fetch(url, { method: 'POST', body: form });
}

async function errorOf(response: Response) {
  const body = await response.text();
  return { status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(body)?.[1], message: /<Message>([^<]*)<\/Message>/.exec(body)?.[1] };
}

async function stored(key: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (error instanceof S3ServiceException && error.name === 'NotFound') return false;
    throw error;
  }
}

describe('local S3 with header-signed SDK calls', () => {
  it('stores an object with its content type and metadata and reads it back', async () => {
    // Prepare
    const key = 'docs/invoice 1 (copy).txt';

    // Act
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'hello invoice', ContentType: 'text/plain', Metadata: { owner: 'w1' } }),
    );
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));

    // Assess
    expect(await got.Body?.transformToString()).toBe('hello invoice');
    expect(got.ContentType).toBe('text/plain');
    expect(got.Metadata).toEqual({ owner: 'w1' });
    expect(existsSync(path.join(dir, bucket, 'docs', 'invoice 1 (copy).txt'))).toBe(true);
  });

  it('keeps objects, their metadata and their folders for their owner alone (0600 files, 0700 folders)', async () => {
    // Act
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'applications/a1/idFront', Body: 'an ID image', ContentType: 'image/png' }));

    // Assess
    expect(statSync(path.join(dir, bucket, 'applications', 'a1', 'idFront')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, '.meta', bucket, 'applications', 'a1', 'idFront.json')).mode & 0o777).toBe(0o600);
    for (const folder of [dir, path.join(dir, bucket), path.join(dir, bucket, 'applications', 'a1'), path.join(dir, '.tmp')]) {
      expect(statSync(folder).mode & 0o777).toBe(0o700);
    }
  });

  it('accepts a streamed body sent aws-chunked with a checksum trailer', async () => {
    // Prepare
    const body = Readable.from([Buffer.from('first '), Buffer.from('second')]);

    // Act
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'stream.txt', Body: body, ContentLength: 12 }));
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'stream.txt' }));

    // Assess
    expect(await got.Body?.transformToString()).toBe('first second');
  });

  it('deletes an object so a HEAD no longer finds it', async () => {
    // Prepare
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'tmp/gone.txt', Body: 'x' }));

    // Act
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'tmp/gone.txt' }));

    // Assess
    expect(await stored('tmp/gone.txt')).toBe(false);
    expect(existsSync(path.join(dir, bucket, 'tmp'))).toBe(false);
  });

  it('refuses a signature made with another secret', async () => {
    // Prepare
    const impostor = localS3Client(s3.endpoint, { accessKeyId: 'local', secretAccessKey: 'guess' });

    // Act
    const sent = impostor.send(new PutObjectCommand({ Bucket: bucket, Key: 'forged.txt', Body: 'x' }));

    // Assess
    await expect(sent).rejects.toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } });
    expect(await stored('forged.txt')).toBe(false);
    impostor.destroy();
  });

  it("refuses a key with a '..' segment", async () => {
    // Act
    const sent = client.send(new PutObjectCommand({ Bucket: bucket, Key: 'uploads/../../escape.txt', Body: 'x' }));

    // Assess
    await expect(sent).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    expect(existsSync(path.join(dir, 'escape.txt'))).toBe(false);
  });

  it('refuses a request without any signature', async () => {
    // Prepare
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'private.txt', Body: 'secret' }));

    // Act
    const response = await fetch(`${s3.endpoint}/${bucket}/private.txt`);

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 403, code: 'AccessDenied' });
  });
});

describe('local S3 presigned GET', () => {
  beforeAll(() => client.send(new PutObjectCommand({ Bucket: bucket, Key: 'photos/a.png', Body: png(), ContentType: 'image/png' })));

  it('serves the object to a plain fetch of the presigned URL', async () => {
    // Prepare
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: 'photos/a.png' }), { expiresIn: 120 });

    // Act
    const response = await fetch(url);

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png());
  });

  it('applies a signed response-content-disposition and serves a byte range', async () => {
    // Prepare
    const command = new GetObjectCommand({
      Bucket: bucket,
      Key: 'photos/a.png',
      ResponseContentDisposition: 'attachment; filename="a.png"',
    });
    const url = await getSignedUrl(client, command, { expiresIn: 120 });

    // Act
    const response = await fetch(url, { headers: { range: 'bytes=2-5' } });

    // Assess
    expect(response.status).toBe(206);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="a.png"');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png().slice(2, 6));
  });

  it('answers 403 SignatureDoesNotMatch when the signature is tampered with', async () => {
    // Prepare
    const url = new URL(await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: 'photos/a.png' })));
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature.startsWith('0') ? '1' : '0'}${signature.slice(1)}`);

    // Act
    const response = await fetch(url);

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
  });

  it('answers 403 SignatureDoesNotMatch when the URL is pointed at another key', async () => {
    // Prepare
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: 'photos/a.png' }));

    // Act
    const response = await fetch(url.replace('photos/a.png', 'private.txt'));

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
  });

  it('answers 403 "Request has expired" once the URL has expired', async () => {
    // Prepare
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: 'photos/a.png' }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 61_000),
    });

    // Act
    const response = await fetch(url);

    // Assess
    expect(await errorOf(response)).toEqual({ status: 403, code: 'AccessDenied', message: 'Request has expired' });
  });

  it('accepts a presigned PUT and refuses it after it expired', async () => {
    // Prepare
    const command = new PutObjectCommand({ Bucket: bucket, Key: 'uploads/put.txt' });
    const url = await getSignedUrl(client, command, { expiresIn: 60 });
    const expired = await getSignedUrl(client, command, { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });

    // Act
    const accepted = await fetch(url, { method: 'PUT', body: 'put by url' });
    const refused = await fetch(expired, { method: 'PUT', body: 'too late' });
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'uploads/put.txt' }));

    // Assess
    expect(accepted.status).toBe(200);
    expect(await errorOf(refused)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(await got.Body?.transformToString()).toBe('put by url');
  });
});

describe('local S3 browser POST uploads', () => {
  it('stores a file posted with a presigned POST so it can be read back', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/ok.png');

    // Act
    const response = await postForm(url, fields, png(2048));
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'uploads/ok.png' }));

    // Assess
    expect(response.status).toBe(204);
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(got.ContentType).toBe('image/png');
    expect(new Uint8Array(await got.Body!.transformToByteArray())).toEqual(png(2048));
  });

  it('answers 201 with an XML PostResponse when success_action_status asks for it', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/created.png', { Fields: { 'Content-Type': 'image/png', success_action_status: '201' } });

    // Act
    const response = await postForm(url, fields, png());

    // Assess
    expect(response.status).toBe(201);
    expect(await response.text()).toContain('<Key>uploads/created.png</Key>');
  });

  it('answers 400 EntityTooLarge for a file over the length range and stores nothing', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/big.png');

    // Act
    const response = await postForm(url, fields, new Uint8Array(TEN_MB + 1));

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'EntityTooLarge' });
    expect(await stored('uploads/big.png')).toBe(false);
    expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
  });

  it('answers 400 EntityTooSmall for an empty file', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/empty.png');

    // Act
    const response = await postForm(url, fields, new Uint8Array(0));

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'EntityTooSmall' });
    expect(await stored('uploads/empty.png')).toBe(false);
  });

  it('answers 403 when the Content-Type is not the one the policy names', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/wrong-type.png');

    // Act
    const response = await postForm(url, { ...fields, 'Content-Type': 'text/html' }, png(), 'text/html');

    // Assess
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(error.message).toContain('Policy Condition failed');
    expect(await stored('uploads/wrong-type.png')).toBe(false);
  });

  it('answers 403 when the key is not the one the policy names', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/mine.png');

    // Act
    const response = await postForm(url, { ...fields, key: 'uploads/theirs.png' }, png());

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(await stored('uploads/theirs.png')).toBe(false);
  });

  it('answers 403 SignatureDoesNotMatch when the policy is tampered with', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/tampered.png');
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
    policy.conditions[0] = ['content-length-range', 1, 100 * TEN_MB];
    const forged = Buffer.from(JSON.stringify(policy)).toString('base64');

    // Act
    const response = await postForm(url, { ...fields, Policy: forged }, png());

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await stored('uploads/tampered.png')).toBe(false);
  });

  it('answers 403 once the policy has expired', async () => {
    // Prepare
    const late = new S3Client({ ...localS3Config(), systemClockOffset: -3_600_000 });
    const { url, fields } = await presignPost('uploads/late.png', { Expires: 60 }, late);
    late.destroy();

    // Act
    const response = await postForm(url, fields, png());

    // Assess
    expect(await errorOf(response)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Policy expired.',
    });
  });

  it('answers 403 for a form field the policy does not cover', async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/extra.png');

    // Act
    const response = await postForm(url, { ...fields, 'x-amz-meta-owner': 'someone' }, png());

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 403, code: 'AccessDenied' });
  });

  it("refuses a key with a '..' segment even when the policy allows it", async () => {
    // Prepare
    const { url, fields } = await presignPost('uploads/../../../escape.png');

    // Act
    const response = await postForm(url, fields, png());

    // Assess
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(existsSync(path.join(dir, 'escape.png'))).toBe(false);
    expect(existsSync(path.join(path.dirname(dir), 'escape.png'))).toBe(false);
  });
});

describe('local S3 CORS', () => {
  it('lets a page on a localhost port preflight and read a POST upload', async () => {
    // Act
    const preflight = await fetch(`${s3.endpoint}/${bucket}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    const { url, fields } = await presignPost('uploads/cors.png');
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([png()], { type: 'image/png' }), 'cors.png');
    const posted = await fetch(url, { method: 'POST', body: form, headers: { origin: 'http://localhost:5173' } });

    // Assess
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(posted.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('refuses a preflight from an origin that is not local', async () => {
    // Act
    const preflight = await fetch(`${s3.endpoint}/${bucket}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });

    // Assess
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('multipart parser', () => {
  it('finds every part when the body arrives one byte at a time', () => {
    // Prepare
    const body = Buffer.from(
      '--XyZ\r\nContent-Disposition: form-data; name="key"\r\n\r\nuploads/a\r\n' +
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n' +
        'line one\r\n--Xy\r\nline two --XyZ end' +
        '\r\n--XyZ--\r\n',
    );
    const parser = new MultipartParser('XyZ');
    const parts: { name: string; filename?: string; data: string }[] = [];

    // Act
    for (const byte of body) {
      for (const event of parser.push(Buffer.from([byte]))) {
        if (event.type === 'part') parts.push({ name: event.name, filename: event.filename, data: '' });
        else if (event.type === 'data') parts.at(-1)!.data += event.data.toString();
      }
    }

    // Assess
    expect(parser.finished).toBe(true);
    expect(parts).toEqual([
      { name: 'key', filename: undefined, data: 'uploads/a' },
      { name: 'file', filename: 'a.txt', data: 'line one\r\n--Xy\r\nline two --XyZ end' },
    ]);
  });
});

function localS3Config() {
  return { endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials };
}
