import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMail } from './ses';
import { startLocalStack, type LocalStack } from './stack';

/**
 * Mail as `npm start` runs it: a company applies, the application's write puts its "received" mail
 * in the outbox, the table's stream hands it to send-mail, and the local SES keeps it under the
 * data folder and lists it on the local inbox page.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-mail-stack-'));
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, dataDir, web: false });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const sampleApplication = JSON.parse(
  (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../events/submit-company-application.json'), 'utf8')) as { body: string }).body,
) as Record<string, unknown>;

async function mailsTo(to: string): Promise<StoredMail[]> {
  const { messages } = (await (await fetch(`${stack.sesEndpoint}/_local/messages`)).json()) as { messages: StoredMail[] };
  return messages.filter((m) => m.to.includes(to));
}

async function until<T>(read: () => Promise<T | undefined>, ms = 15_000): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start: mail', () => {
  it("mails a company's contact that its application was received, kept as MIME under the data folder and listed on the local inbox", async () => {
    // Prepare
    const email = `jordan-${Date.now()}@example.com`;

    // Act
    const applied = await fetch(`${stack.url}/api/company-applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...sampleApplication, emailAddress: email }),
    });
    const { id } = (await applied.json()) as { id: string };
    const mail = await until(async () => (await mailsTo(email))[0]);
    const inbox = await fetch(`${stack.url}/_local/inbox`);
    const inboxHtml = await inbox.text();

    // Assess
    expect(applied.status).toBe(201);
    expect(mail).toBeDefined();
    expect(mail!.text).toContain(`${stack.url}/apply/company/status/${id}`);
    expect(readdirSync(path.join(dataDir, 'ses'))).toContain(`${mail!.messageId}.eml`);
    expect(inbox.status).toBe(200);
    expect(inboxHtml).toContain(`/_local/inbox/${mail!.messageId}`);
    expect(await mailsTo(email)).toHaveLength(1);
  });
});
