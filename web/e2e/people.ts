import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';

/**
 * People the dispatch journeys need, made through the public API exactly as the screens make them
 * (the worker journey walks the same steps through the screens): the owner set up, a pro who
 * applied with three uploaded ID images, approved by the owner, with an account.
 */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const sampleApplication = JSON.parse(
  (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../events/submit-worker-application.json'), 'utf8')) as { body: string }).body,
) as Record<string, unknown>;

async function call(base: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return { res, body: text ? (JSON.parse(text) as any) : undefined };
}

async function upload(base: string): Promise<string> {
  const { body: presigned } = await call(base, 'POST', '/api/upload', { type: 'worker-documents', contentType: 'image/png', size: PNG.length });
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'id.png');
  const res = await fetch(presigned.url, { method: 'POST', body: form });
  if (!res.ok) throw new Error(`upload answered ${res.status}`);
  return presigned.key as string;
}

/**
 * Sets up the owner once per stack, with the setup code its console showed (as the operator does);
 * the session cookie header.
 */
export async function ownerCookie(stack: { url: string; setupCode?: string }): Promise<string> {
  if (!stack.setupCode) throw new Error('The stack printed no setup code: is an owner already set up in its data folder?');
  const { res } = await call(stack.url, 'POST', '/api/admin/setup', { setupCode: stack.setupCode, username: 'owner', email: 'owner@example.com', password: 'owner-password-1', confirm: 'owner-password-1' });
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

export interface Pro {
  id: string;
  email: string;
  token: string;
  worker: unknown;
}

/** An approved pro of `categories`, with an account, clocked out and off call. */
export async function approvedPro(base: string, owner: string, fullName: string, categories: string[]): Promise<Pro> {
  const email = `${fullName.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.com`;
  const [photoIdFrontUrl, photoIdBackUrl, selfieUrl] = await Promise.all([upload(base), upload(base), upload(base)]);
  await call(base, 'POST', '/api/worker-applications', {
    ...sampleApplication,
    fullName,
    emailAddress: email,
    servicesProvided: categories,
    photoIdFrontUrl,
    photoIdBackUrl,
    selfieUrl,
  });
  const { body: pending } = await call(base, 'GET', '/api/admin/workers/pending', undefined, { cookie: owner });
  // The pending list comes a page at a time ({ items, nextCursor }); a fresh stack's first page holds it.
  const application = (pending as { items: { id: string; email: string }[] }).items.find((a) => a.email === email)!;
  await call(base, 'POST', `/api/admin/workers/${application.id}/approve`, undefined, { cookie: owner });
  // The account is made with the single-use link the approval mail carries, as the pro makes it.
  const token = await mailedAccountToken(base, email, 'Welcome to Fixly: your application is approved');
  const password = 'correct-horse-42';
  const { body } = await call(base, 'POST', '/api/workers/create-account', { token, password, confirmPassword: password });
  return { id: body.worker.id, email, token: body.token, worker: body.worker };
}

/**
 * The account link's secret in the newest mail to `to` with `subject`, read from the local
 * runtime's inbox page (`/_local/inbox`) as a person trying the stack reads it: the table's stream
 * sends the mail a moment after the write, so this waits for it.
 */
export async function mailedAccountToken(base: string, to: string, subject: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const row = new RegExp(`<td>${escaped(to)}</td><td><a href="(/_local/inbox/[^"]+)">${escaped(subject)}</a>`);
  for (;;) {
    const inbox = await (await fetch(`${base}/_local/inbox`)).text();
    // Newest first: the first row for the address is the mail just sent.
    const href = row.exec(inbox)?.[1];
    if (href) {
      const page = await (await fetch(`${base}${href}`)).text();
      const token = /\/worker\/signup#token=([A-Za-z0-9_-]+)/.exec(page)?.[1];
      if (token) return token;
    }
    if (Date.now() > deadline) throw new Error(`No mail "${subject}" with an account link reached ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The pro's session in the browser, as login leaves it (local storage). */
export async function signIn(context: BrowserContext, base: string, pro: Pro): Promise<void> {
  await context.addInitScript(
    ([token, worker]) => {
      if (!window.localStorage.getItem('workerToken')) {
        window.localStorage.setItem('workerToken', token as string);
        window.localStorage.setItem('worker', worker as string);
      }
    },
    [pro.token, JSON.stringify(pro.worker)],
  );
  void base;
}

/** A call as the pro (bearer token), for steps the journey does not look at. */
export async function asPro(base: string, pro: Pro, method: string, url: string, body?: unknown) {
  return (await call(base, method, url, body, { authorization: `Bearer ${pro.token}` })).body;
}

/** The pro comes on call as the dashboard does: clocks in, goes available, shares where they are. */
export async function bringOnCall(base: string, pro: Pro, at: { latitude: number; longitude: number }): Promise<void> {
  await asPro(base, pro, 'POST', '/api/workers/clock-in');
  await asPro(base, pro, 'POST', '/api/workers/availability', { isAvailable: true });
  await asPro(base, pro, 'POST', '/api/workers/location', at);
}

/**
 * The pro at the door presses Mark Arrived, their device sharing a precise fix at the job's address
 * (as the dashboard's sharing sends it): the arrival is proven and recorded. Answers what the server
 * said; a job with no position to prove it against stays a claim for its customer to confirm.
 */
export async function arriveAtJob(base: string, pro: Pro, jobId: string): Promise<{ state: string; arrivalClaim: { message: string } | null }> {
  const job = (await asPro(base, pro, 'GET', `/api/jobs/${jobId}`)) as { latitude: number | null; longitude: number | null };
  if (job.latitude !== null && job.longitude !== null) {
    await asPro(base, pro, 'POST', '/api/workers/location', { latitude: job.latitude, longitude: job.longitude, accuracy: 10 });
  }
  return asPro(base, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'arrived' });
}

/** The pro works an accepted job (one with a position) through to completed: on the way, arrived at its address, started, completed. */
export async function workToCompletion(base: string, pro: Pro, jobId: string): Promise<void> {
  await asPro(base, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'en_route' });
  const arrived = await arriveAtJob(base, pro, jobId);
  if (arrived.state !== 'arrived') throw new Error(`Mark Arrived at the job's address was not recorded: ${arrived.arrivalClaim?.message ?? arrived.state}`);
  await asPro(base, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'in_progress' });
  await asPro(base, pro, 'POST', `/api/jobs/${jobId}/complete`, {});
}
