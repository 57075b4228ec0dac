import { SESv2Client, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from './stack';
import { startLocalSes, type LocalSes } from './ses';

const dir = mkdtempSync(path.join(tmpdir(), 'local-ses-'));
let ses: LocalSes;
let client: SESv2Client;

beforeAll(async () => {
  ses = await startLocalSes(dir);
  // The client as functions/common/clients.ts makes it, pointed at the local endpoint.
  client = new SESv2Client({ region: 'us-east-1', endpoint: ses.endpoint, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
});

afterAll(async () => {
  client.destroy();
  await ses.close();
  rmSync(dir, { recursive: true, force: true });
});

const mail = (overrides: Partial<SendEmailCommandInput> = {}): SendEmailCommandInput => ({
  FromEmailAddress: 'Fixly <no-reply@fixly.test>',
  Destination: { ToAddresses: ['ana@example.com'] },
  Content: {
    Simple: {
      Subject: { Data: 'We received your application', Charset: 'UTF-8' },
      Body: { Text: { Data: 'Hi Ana, café at 5?' }, Html: { Data: '<p>Hi Ana, café at 5?</p>' } },
    },
  },
  ConfigurationSetName: 'marketplace-local',
  EmailTags: [{ Name: 'kind', Value: 'worker-application-received' }],
  ...overrides,
});

async function refusal(input: SendEmailCommandInput): Promise<{ name: string; status?: number; message: string }> {
  try {
    await client.send(new SendEmailCommand(input));
  } catch (error) {
    const e = error as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
  throw new Error('SES took the message');
}

describe('local SES (infra/local/ses.ts) with the real SESv2 client', () => {
  it('takes a message, answers its id, and keeps it as raw MIME and in the index', async () => {
    // Act
    const out = await client.send(new SendEmailCommand(mail()));

    // Assess
    expect(out.MessageId).toMatch(/^[0-9a-f]{16}-[0-9a-f-]{36}-000000$/);
    const kept = ses.messages().find((m) => m.messageId === out.MessageId)!;
    expect(kept).toMatchObject({
      from: 'Fixly <no-reply@fixly.test>',
      to: ['ana@example.com'],
      subject: 'We received your application',
      text: 'Hi Ana, café at 5?',
      configurationSet: 'marketplace-local',
      tags: { kind: 'worker-application-received' },
    });
    const raw = readFileSync(path.join(dir, kept.file), 'utf8');
    expect(raw).toContain('From: Fixly <no-reply@fixly.test>\r\n');
    expect(raw).toContain('To: ana@example.com\r\n');
    expect(raw).toContain('Content-Type: multipart/alternative;');
    expect(raw).toContain('X-SES-CONFIGURATION-SET: marketplace-local');
    const parts = [...raw.matchAll(/Content-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/g)].map((m) => Buffer.from(m[1]!.replace(/\r\n/g, ''), 'base64').toString('utf8'));
    expect(parts).toEqual(['Hi Ana, café at 5?', '<p>Hi Ana, café at 5?</p>']);
    const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as { messageId: string }[];
    expect(index.map((m) => m.messageId)).toContain(out.MessageId);
  });

  it('keeps every message and the index for their owner alone (0600)', async () => {
    // Act: a reset link's mail
    const out = await client.send(new SendEmailCommand(mail({ Destination: { ToAddresses: ['reset@example.com'] } })));

    // Assess
    const kept = ses.messages().find((m) => m.messageId === out.MessageId)!;
    expect(statSync(path.join(dir, kept.file)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'index.json')).mode & 0o777).toBe(0o600);
  });

  it("makes its data folder its owner's alone (0700), one made before with an open mode too", async () => {
    // Prepare
    const older = path.join(dir, 'older');
    mkdirSync(older);
    chmodSync(older, 0o755);

    // Act
    const second = await startLocalSes(older);
    await second.close();

    // Assess
    expect(statSync(older).mode & 0o777).toBe(0o700);
  });

  it('keeps what it took across a restart, from the data folder', async () => {
    // Prepare
    const out = await client.send(new SendEmailCommand(mail({ Destination: { ToAddresses: ['restart@example.com'] } })));

    // Act
    const again = await startLocalSes(dir);
    const kept = again.messages();
    await again.close();

    // Assess
    expect(kept.map((m) => m.messageId)).toContain(out.MessageId);
  });

  it.each([
    ['no From', mail({ FromEmailAddress: undefined }), /FromEmailAddress/],
    ['a From that is no address', mail({ FromEmailAddress: 'Fixly <no-reply>' }), /Illegal address/],
    ['no recipient', mail({ Destination: { ToAddresses: [] } }), /recipient/],
    ['a recipient that is no address', mail({ Destination: { ToAddresses: ['ana at example.com'] } }), /Illegal address/],
    ['no subject', mail({ Content: { Simple: { Subject: { Data: '' }, Body: { Text: { Data: 'x' } } } } }), /Subject/],
    ['no body', mail({ Content: { Simple: { Subject: { Data: 'Hello' }, Body: {} } } }), /Body/],
  ])('refuses a message with %s as SES does (400 BadRequestException), keeping nothing', async (_case, input, message) => {
    // Prepare
    const before = ses.messages().length;

    // Act
    const refused = await refusal(input);

    // Assess
    expect(refused).toMatchObject({ name: 'BadRequestException', status: 400 });
    expect(refused.message).toMatch(message);
    expect(ses.messages()).toHaveLength(before);
  });

  it('refuses more than 50 recipients as SES does (MessageRejected)', async () => {
    // Act
    const refused = await refusal(mail({ Destination: { ToAddresses: Array.from({ length: 51 }, (_, i) => `p${i}@example.com`) } }));

    // Assess
    expect(refused).toMatchObject({ name: 'MessageRejected', status: 400 });
  });

  it('refuses a request without AWS credentials', async () => {
    // Act
    const response = await fetch(`${ses.endpoint}/v2/email/outbound-emails`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({}) });

    // Assess
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
  });

  it('lists the messages on its local-only inbox page, each with its text, its HTML in a sandboxed frame and its raw MIME', async () => {
    // Prepare
    const out = await client.send(new SendEmailCommand(mail({ Destination: { ToAddresses: ['inbox@example.com'] }, Content: { Simple: { Subject: { Data: 'Your <b>status</b>' }, Body: { Text: { Data: 'Open it' }, Html: { Data: '<p>Open it</p>' } } } } })));

    // Act
    const list = await fetch(`${ses.endpoint}/_local/inbox`);
    const listHtml = await list.text();
    const page = await fetch(`${ses.endpoint}/_local/inbox/${out.MessageId}`);
    const pageHtml = await page.text();
    const raw = await fetch(`${ses.endpoint}/_local/inbox/${out.MessageId}.eml`);

    // Assess
    expect(list.status).toBe(200);
    expect(listHtml).toContain('Your &lt;b&gt;status&lt;/b&gt;');
    expect(listHtml).toContain(`/_local/inbox/${out.MessageId}`);
    expect(pageHtml).toContain('<pre>Open it</pre>');
    expect(pageHtml).toContain('<iframe sandbox');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(raw.headers.get('content-type')).toBe('message/rfc822');
    expect(await raw.text()).toContain('To: inbox@example.com');
    expect(existsSync(path.join(dir, `${out.MessageId}.eml`))).toBe(true);
  });
});
