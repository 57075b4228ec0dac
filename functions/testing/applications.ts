import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as createAccount } from '../identity/create-worker-account';
import { handler as submitCompanyApplication } from '../applications/submit-company-application';
import { handler as submitWorkerApplication } from '../applications/submit-worker-application';
import { newId } from '../common/ids';
import { presignUpload } from '../common/storage';
import { receivedMailToken } from './account-links';
import { ownerSessionCookie } from './owner';
import { invoke, sampleEvent, withBody, withCookies, withPath } from './events';

/** Test helpers for the application and owner-review handlers. */

/** Uploads a small file the way the browser does (presigned POST straight to the local S3). */
export async function uploadFile(
  folder: 'worker-documents' | 'company-documents' = 'worker-documents',
  contentType = 'image/jpeg',
): Promise<string> {
  return (await uploadWithForm(folder, contentType)).key;
}

/** POSTs bytes with a presigned form, as the browser does. */
export async function postWithForm(form: { url: string; fields: Record<string, string> }, bytes: string, contentType: string): Promise<void> {
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
  body.append('file', new Blob([bytes], { type: contentType }), 'file');
  const res = await fetch(form.url, { method: 'POST', body });
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

/** An upload and the presigned form it went through, which stays valid for minutes after. */
export async function uploadWithForm(
  folder: 'worker-documents' | 'company-documents' = 'worker-documents',
  contentType = 'image/jpeg',
  bytes = 'test image bytes',
) {
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' }[contentType] ?? 'jpg';
  const form = await presignUpload({ key: `uploads/${folder}/${newId()}.${ext}`, contentType, maxBytes: 1024 });
  await postWithForm(form, bytes, contentType);
  return { key: form.key, form };
}

export const freshEmail = () => `${randomUUID()}@example.com`;

/** The sample JSON application with a fresh email and three really uploaded images. */
/** A JSON body, read field by field in tests. */
export async function workerApplicationBody(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const sample = JSON.parse(sampleEvent('submit-worker-application').body!) as Record<string, unknown>;
  const [photoIdFrontUrl, photoIdBackUrl, selfieUrl] = await Promise.all([uploadFile(), uploadFile(), uploadFile()]);
  return { ...sample, emailAddress: freshEmail(), photoIdFrontUrl, photoIdBackUrl, selfieUrl, ...overrides };
}

/** Files a pending worker application; its id and body. */
export async function pendingApplication(overrides: Record<string, unknown> = {}) {
  const body = await workerApplicationBody(overrides);
  const res = await invoke(submitWorkerApplication, withBody(sampleEvent('submit-worker-application'), body));
  if (res.status !== 201) throw new Error(`application refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, body };
}

/** Files a pending company application (the sample's, with a fresh email); its id and body. */
export async function pendingCompanyApplication(overrides: Record<string, unknown> = {}) {
  const sample = sampleEvent('submit-company-application');
  const body: Record<string, any> = { ...(JSON.parse(sample.body!) as Record<string, unknown>), emailAddress: freshEmail(), ...overrides };
  const res = await invoke(submitCompanyApplication, withBody(sample, body));
  if (res.status !== 201) throw new Error(`company application refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, body };
}

/** The named sample event as the owner, with path parameters. */
export async function asOwner(name: string, params?: Record<string, string>): Promise<APIGatewayProxyEventV2> {
  const event = sampleEvent(name);
  return withCookies(params ? withPath(event, params) : event, [await ownerSessionCookie()]);
}

/**
 * Every item of an owner's paginated list, following its cursors (the shared test table holds
 * every test's applications, so one page need not reach the ones a test made), and the pages' sizes.
 */
export async function everyPage<T = any>(
  handler: Parameters<typeof invoke>[0],
  name: string,
  limit = 100,
): Promise<{ items: T[]; pages: number[] }> {
  const items: T[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  do {
    const event = await asOwner(name);
    const res = await invoke(handler, { ...event, queryStringParameters: { limit: String(limit), ...(cursor ? { cursor } : {}) } });
    if (res.status !== 200) throw new Error(`${name} answered ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...(res.body.items as T[]));
    pages.push(res.body.items.length);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  return { items, pages };
}

/**
 * An applicant who filed an application and made their account before any decision, with the link
 * the "application received" mail carried: its id, body and their token.
 */
export async function applicantWithAccount(password = 'applicant-pass-42') {
  const application = await pendingApplication();
  const res = await invoke(
    createAccount,
    withBody(sampleEvent('create-worker-account'), { token: await receivedMailToken(application.id), password, confirmPassword: password }),
  );
  if (res.status !== 201) throw new Error(`account refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...application, workerId: res.body.worker.id as string, token: res.body.token as string };
}
