import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { addDays } from '../../shared/domain/documents';
import { documentCategoryById } from '../../shared/document-categories';
import { todayUtc } from '../../shared/schemas/document-rules';
import type { DocumentUploadTicket, DocumentView } from '../../shared/schemas/documents';
import { handler as confirmUpload } from '../documents/confirm-document-upload';
import { handler as createUpload } from '../documents/create-document-upload';
import { documentsRepo, newDocumentItem, type DocumentItem } from '../documents/data/documents';
import type { WorkerItem } from '../workers/data/workers';
import { env } from '../common/env';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withBody, withPath } from './events';
import { createTestWorker, withBearer, workerToken } from './workers';

/** Test helpers for the compliance document handlers. */

/** The first bytes of real files of each kind, padded to `size`. */
export const fileBytes = {
  pdf: (size = 256) => padded('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', size),
  png: (size = 256) => padded(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), size),
  jpg: (size = 256) => padded(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]), size),
  docx: (size = 256) => padded(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 6, 0]), size),
  doc: (size = 256) => padded(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), size),
  txt: (text = 'Reference: worked with us since 2019 — très bien.\n') => new TextEncoder().encode(text),
  html: () => new TextEncoder().encode('<!doctype html><html><body><script>alert(1)</script></body></html>'),
};

function padded(head: string | Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const start = typeof head === 'string' ? new TextEncoder().encode(head) : head;
  const out = new Uint8Array(Math.max(size, start.length));
  out.set(start);
  for (let i = start.length; i < out.length; i++) out[i] = 0x20 + (i % 90);
  return out;
}

export interface TestWorker {
  worker: WorkerItem;
  token: string;
}

/** An active worker with a live token (a plumber: the trade licence is required of them). */
export async function workerWithToken(overrides: Partial<WorkerItem> = {}): Promise<TestWorker> {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

/** The named sample event as this worker, with path parameters, query and body as given. */
export function asWorker(
  name: string,
  token: string,
  parts: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): APIGatewayProxyEventV2 {
  let event = withBearer(sampleEvent(name), token);
  if (parts.params) event = withPath(event, parts.params);
  if (parts.query) event = { ...event, queryStringParameters: parts.query };
  if (parts.body !== undefined) event = withBody(event, parts.body);
  return event;
}

/** An expiration date `days` from today. */
export const inDays = (days: number) => addDays(todayUtc(), days);

export function uploadBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    categoryId: 'liability-insurance',
    filename: 'liability-certificate.pdf',
    contentType: 'application/pdf',
    fileSize: 256,
    expirationDate: inDays(200),
    ...overrides,
  };
}

/** What the browser does with a presigned POST: every field, then the file last. */
export function postFile(ticket: { url: string; fields: Record<string, string> }, bytes: Uint8Array<ArrayBuffer>, contentType: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: contentType }), 'file');
  return fetch(ticket.url, { method: 'POST', body: form });
}

/** Asks for an upload, posts the bytes to the local S3 and confirms: the confirm's answer. */
export async function uploadDocument(
  token: string,
  body: Record<string, unknown> = {},
  bytes: Uint8Array<ArrayBuffer> = fileBytes.pdf(),
) {
  const request = uploadBody({ fileSize: bytes.length, ...body });
  const ticket = await invoke(createUpload, asWorker('create-document-upload', token, { body: request }));
  if (ticket.status !== 201) throw new Error(`upload refused: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const posted = await postFile(ticket.body, bytes, String(request.contentType));
  if (!posted.ok) throw new Error(`post refused: ${posted.status} ${await posted.text()}`);
  return invoke<{ document: DocumentView }>(confirmUpload, asWorker('confirm-document-upload', token, { params: { uploadId: ticket.body.uploadId } }));
}

/**
 * An uploaded and confirmed document with the presigned form it was posted with, which stays
 * valid for minutes after the confirm: what a worker would swap the file with.
 */
export async function confirmedWithTicket(token: string, bytes: Uint8Array<ArrayBuffer> = fileBytes.pdf(), body: Record<string, unknown> = {}) {
  const request = uploadBody({ fileSize: bytes.length, ...body });
  const ticket = await invoke<DocumentUploadTicket>(createUpload, asWorker('create-document-upload', token, { body: request }));
  if (ticket.status !== 201) throw new Error(`upload refused: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const posted = await postFile(ticket.body, bytes, String(request.contentType));
  if (!posted.ok) throw new Error(`post refused: ${posted.status} ${await posted.text()}`);
  const res = await invoke<{ document: DocumentView }>(confirmUpload, asWorker('confirm-document-upload', token, { params: { uploadId: ticket.body.uploadId } }));
  if (res.status !== 201) throw new Error(`confirm refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { document: res.body.document, ticket: ticket.body };
}

/** An uploaded and confirmed document; its view. */
export async function confirmedDocument(token: string, body: Record<string, unknown> = {}, bytes?: Uint8Array<ArrayBuffer>): Promise<DocumentView> {
  const res = await uploadDocument(token, body, bytes);
  if (res.status !== 201) throw new Error(`confirm refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.document;
}

let s3: S3Client | undefined;

/**
 * A document written straight to the table (and its file to the bucket), for states the API cannot
 * reach today, such as an expiration date already past.
 */
export async function storedDocument(workerId: string, fields: Partial<DocumentItem> & { categoryId: string }): Promise<DocumentItem> {
  const category = documentCategoryById(fields.categoryId)!;
  const id = newId();
  const key = `documents/${workerId}/${id}/file.pdf`;
  s3 ??= new S3Client({ region: env.AWS_REGION, endpoint: env.S3_ENDPOINT, forcePathStyle: true });
  await s3.send(new PutObjectCommand({ Bucket: env.UPLOADS_BUCKET, Key: key, Body: fileBytes.pdf(), ContentType: 'application/pdf' }));
  const doc = newDocumentItem({
    id,
    workerId,
    categoryName: category.name,
    documentType: category.documentType,
    filename: 'document.pdf',
    displayName: null,
    description: null,
    fileSize: 256,
    mimeType: 'application/pdf',
    format: 'pdf',
    key,
    contentHash: '0'.repeat(64),
    status: 'approved',
    expirationDate: null,
    reviewNotes: null,
    reviewedAt: null,
    reviewedBy: null,
    version: 1,
    parentDocumentId: null,
    isLatestVersion: true,
    createdAt: new Date().toISOString(),
    ...fields,
  });
  if ((await documentsRepo.store(doc)) !== 'stored') throw new Error('could not store the test document');
  return doc;
}
