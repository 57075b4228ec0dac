import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readBody, sendJson } from './http-io';
import { makePrivateFolder, writePrivateFile } from './private-file';

/**
 * A local SES (v2) for the embedded runtime, so functions/mail (the real `@aws-sdk/client-sesv2`,
 * pointed here by SES_ENDPOINT) sends offline. It answers the one call the product makes,
 * SendEmail (`POST /v2/email/outbound-emails`, JSON) with Simple content, and refuses what SES
 * refuses, in SES's error shape (the `x-amzn-ErrorType` header and `{ message }`): no From, no
 * recipient, an address that is not one, more than 50 recipients, no subject or no body. A request
 * with no SigV4 Authorization is refused as AWS refuses it. Not modelled: identities and their
 * verification, the sandbox, sending quotas, templates, Raw content (refused, the product never
 * sends it).
 *
 * Every message accepted is kept as SES would hand it on, raw MIME (`<dir>/<message id>.eml`:
 * multipart/alternative, text and HTML, with the configuration set and tags as SES's X-SES headers),
 * plus `<dir>/index.json`, the list of what was sent (newest last), rewritten atomically; the folder
 * is its owner's alone (0700) and so is each file (0600).
 *
 * Local-only, for people and tests (SES has no such paths): `GET /_local/messages` lists the
 * messages (JSON, with their text and HTML), `GET /_local/messages/<id>.eml` is one message's MIME,
 * and `GET /_local/inbox` is a page listing them with each message's text and HTML. The local
 * runtime also serves that page on its own port (`/_local/inbox`).
 */

export interface LocalSes {
  /** `http://127.0.0.1:<port>`: SES_ENDPOINT. */
  endpoint: string;
  /** Every message accepted so far, oldest first. */
  messages(): StoredMail[];
  /** Answers `/_local/inbox` (and its message pages) for a server that mounts the inbox; false for any other path. */
  inbox(req: IncomingMessage, res: ServerResponse): boolean;
  close(): Promise<void>;
}

/** One message SES accepted, as the index keeps it. */
export interface StoredMail {
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  text?: string;
  html?: string;
  configurationSet?: string;
  tags: Record<string, string>;
  /** ISO time it was accepted. */
  at: string;
  /** The raw MIME file's name in the folder. */
  file: string;
}

const INDEX_FILE = 'index.json';
/** SES's limit on a message (40 MB); the product's are a few KB. */
const MAX_BODY_BYTES = 40 * 1024 * 1024;
const MAX_RECIPIENTS = 50;
/** An address SES would take: a local part and a dotted domain, optionally inside a display name's angle brackets. */
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

class SesError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new SesError(400, 'BadRequestException', message);

/** The address inside `Name <address>`, or the whole value; undefined when it is no address SES would take. */
export function addressOf(value: string): string | undefined {
  const angled = /^\s*(?:"[^"]*"|[^<>"]*)\s*<([^<>]+)>\s*$/.exec(value);
  const address = (angled ? angled[1]! : value).trim();
  return ADDRESS.test(address) && address.length <= 320 ? address : undefined;
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badRequest(`${field} must be a list of strings`);
  return value as string[];
}

function requireAddresses(list: string[], field: string): void {
  for (const value of list) {
    if (!addressOf(value)) throw badRequest(`Illegal address in ${field}: ${value}`);
  }
}

interface SimpleContent {
  Subject?: { Data?: unknown };
  Body?: { Text?: { Data?: unknown }; Html?: { Data?: unknown } };
}

/** Checks a SendEmail request as SES does, and answers what is kept of it. */
function acceptSendEmail(body: unknown, messageId: string, at: Date): StoredMail {
  if (!body || typeof body !== 'object') throw new SesError(400, 'SerializationException', 'The request body is not a JSON object');
  const request = body as {
    FromEmailAddress?: unknown;
    Destination?: { ToAddresses?: unknown; CcAddresses?: unknown; BccAddresses?: unknown };
    ReplyToAddresses?: unknown;
    Content?: { Simple?: SimpleContent; Raw?: unknown; Template?: unknown };
    ConfigurationSetName?: unknown;
    EmailTags?: unknown;
  };
  if (typeof request.FromEmailAddress !== 'string' || !request.FromEmailAddress.trim()) {
    throw badRequest('Missing required field FromEmailAddress: a From address is required');
  }
  if (!addressOf(request.FromEmailAddress)) throw badRequest(`Illegal address in FromEmailAddress: ${request.FromEmailAddress}`);
  const to = stringList(request.Destination?.ToAddresses, 'Destination.ToAddresses');
  const cc = stringList(request.Destination?.CcAddresses, 'Destination.CcAddresses');
  const bcc = stringList(request.Destination?.BccAddresses, 'Destination.BccAddresses');
  const replyTo = stringList(request.ReplyToAddresses, 'ReplyToAddresses');
  if (to.length + cc.length + bcc.length === 0) throw badRequest('Missing required field Destination: at least one recipient is required');
  if (to.length + cc.length + bcc.length > MAX_RECIPIENTS) throw new SesError(400, 'MessageRejected', `Recipient count exceeds ${MAX_RECIPIENTS}.`);
  requireAddresses(to, 'Destination.ToAddresses');
  requireAddresses(cc, 'Destination.CcAddresses');
  requireAddresses(bcc, 'Destination.BccAddresses');
  requireAddresses(replyTo, 'ReplyToAddresses');
  const content = request.Content;
  if (!content || typeof content !== 'object') throw badRequest('Missing required field Content');
  if (content.Raw !== undefined || content.Template !== undefined) {
    throw badRequest('This local SES takes Simple content only (the product sends nothing else)');
  }
  const simple = content.Simple;
  if (!simple) throw badRequest('Missing required field Content.Simple');
  const subject = simple.Subject?.Data;
  if (typeof subject !== 'string' || !subject) throw badRequest('Missing required field Content.Simple.Subject.Data');
  if (/[\r\n]/.test(subject)) throw new SesError(400, 'MessageRejected', 'Illegal header: the subject holds a line break.');
  const text = simple.Body?.Text?.Data;
  const html = simple.Body?.Html?.Data;
  if (typeof text !== 'string' && typeof html !== 'string') throw badRequest('Missing required field Content.Simple.Body: a Text or Html part is required');
  const configurationSet = request.ConfigurationSetName;
  if (configurationSet !== undefined && (typeof configurationSet !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(configurationSet))) {
    throw badRequest('ConfigurationSetName must be 1-64 letters, digits, underscores or hyphens');
  }
  const tags: Record<string, string> = {};
  if (request.EmailTags !== undefined) {
    if (!Array.isArray(request.EmailTags)) throw badRequest('EmailTags must be a list');
    for (const tag of request.EmailTags as { Name?: unknown; Value?: unknown }[]) {
      if (typeof tag?.Name !== 'string' || typeof tag.Value !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(tag.Name) || !/^[A-Za-z0-9_.@-]{1,256}$/.test(tag.Value)) {
        throw badRequest('Each email tag needs a Name and a Value of letters, digits, underscores, hyphens, periods or @');
      }
      tags[tag.Name] = tag.Value;
    }
  }
  return {
    messageId,
    from: request.FromEmailAddress,
    to,
    cc,
    bcc,
    replyTo,
    subject,
    ...(typeof text === 'string' ? { text } : {}),
    ...(typeof html === 'string' ? { html } : {}),
    ...(typeof configurationSet === 'string' ? { configurationSet } : {}),
    tags,
    at: at.toISOString(),
    file: `${messageId}.eml`,
  };
}

/** A header value in RFC 2047 encoded words when it is not plain ASCII. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function base64Lines(value: string): string {
  return (Buffer.from(value, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** The message as SES hands it on: raw MIME, CRLF line ends. Bcc is an envelope recipient, never a header. */
export function toMime(mail: StoredMail, domain = 'local.amazonses.com'): string {
  const boundary = `=_local_ses_${mail.messageId.replace(/[^A-Za-z0-9]/g, '')}`;
  const headers = [
    `From: ${headerText(mail.from)}`,
    `To: ${mail.to.map(headerText).join(', ')}`,
    ...(mail.cc.length ? [`Cc: ${mail.cc.map(headerText).join(', ')}`] : []),
    ...(mail.replyTo.length ? [`Reply-To: ${mail.replyTo.map(headerText).join(', ')}`] : []),
    `Subject: ${headerText(mail.subject)}`,
    `Date: ${new Date(mail.at).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${mail.messageId}@${domain}>`,
    'MIME-Version: 1.0',
    ...(mail.configurationSet ? [`X-SES-CONFIGURATION-SET: ${mail.configurationSet}`] : []),
    ...(Object.keys(mail.tags).length ? [`X-SES-MESSAGE-TAGS: ${Object.entries(mail.tags).map(([k, v]) => `${k}=${v}`).join(', ')}`] : []),
  ];
  const parts = [
    ...(mail.text !== undefined ? [['text/plain', mail.text] as const] : []),
    ...(mail.html !== undefined ? [['text/html', mail.html] as const] : []),
  ];
  const body = parts.flatMap(([type, data]) => [
    `--${boundary}`,
    `Content-Type: ${type}; charset=UTF-8`,
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(data),
  ]);
  return [...headers, `Content-Type: multipart/alternative; boundary="${boundary}"`, '', ...body, `--${boundary}--`, ''].join('\r\n');
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (value: string) => value.replace(/[&<>"']/g, (c) => escapes[c]!);

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // The messages' HTML is shown in a sandboxed frame (no scripts, no forms); the page itself runs nothing.
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'");
  res.setHeader('Cache-Control', 'no-store');
  res.end(html);
}

function inboxPage(messages: StoredMail[], base: string): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${esc(m.at.replace('T', ' ').slice(0, 19))}</td><td>${esc(m.to.join(', '))}</td>` +
        `<td><a href="${base}/${encodeURIComponent(m.messageId)}">${esc(m.subject)}</a></td><td>${esc(m.tags.kind ?? '')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local inbox</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2933}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #ddd}</style></head>
<body><h1>Local inbox</h1><p>Every mail the functions sent through the local SES, newest first. Only the local runtime has this page.</p>
${messages.length ? `<table><thead><tr><th>Sent (UTC)</th><th>To</th><th>Subject</th><th>Kind</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No mail yet.</p>'}
</body></html>`;
}

function messagePage(m: StoredMail, base: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(m.subject)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2933}pre{white-space:pre-wrap;background:#f6f7f9;padding:1rem}iframe{width:100%;height:32rem;border:1px solid #ddd}dt{font-weight:bold}</style></head>
<body><p><a href="${base}">← Inbox</a> · <a href="${base}/${encodeURIComponent(m.messageId)}.eml">Raw MIME</a></p>
<h1>${esc(m.subject)}</h1>
<dl><dt>From</dt><dd>${esc(m.from)}</dd><dt>To</dt><dd>${esc(m.to.join(', '))}</dd><dt>Sent</dt><dd>${esc(m.at)}</dd></dl>
${m.text !== undefined ? `<h2>Text</h2><pre>${esc(m.text)}</pre>` : ''}
${m.html !== undefined ? `<h2>HTML</h2><iframe sandbox title="The message's HTML" srcdoc="${esc(m.html)}"></iframe>` : ''}
</body></html>`;
}

export async function startLocalSes(dir: string): Promise<LocalSes> {
  const root = path.resolve(dir);
  // The messages hold reset and sign-in links: only their owner may read them (0700, 0600).
  makePrivateFolder(root);
  const indexFile = path.join(root, INDEX_FILE);
  const index: StoredMail[] = existsSync(indexFile) ? (JSON.parse(readFileSync(indexFile, 'utf8')) as StoredMail[]) : [];

  const save = () => writePrivateFile(indexFile, JSON.stringify(index, null, 2));

  /** The inbox pages under `base` (`/_local/inbox`); false for a path that is not one of them. */
  const serveInbox = (req: IncomingMessage, res: ServerResponse, pathname: string, base: string): boolean => {
    if (req.method !== 'GET' || (pathname !== base && !pathname.startsWith(`${base}/`))) return false;
    const rest = decodeURIComponent(pathname.slice(base.length + 1));
    if (!rest) {
      sendHtml(res, 200, inboxPage(index, base));
      return true;
    }
    const raw = rest.endsWith('.eml');
    const found = index.find((m) => m.messageId === (raw ? rest.slice(0, -4) : rest));
    if (!found) {
      sendHtml(res, 404, '<!doctype html><title>Not found</title><p>No such message.</p>');
    } else if (raw) {
      res.setHeader('Content-Type', 'message/rfc822');
      res.end(readFileSync(path.join(root, found.file)));
    } else {
      sendHtml(res, 200, messagePage(found, base));
    }
    return true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const body = await readBody(req, MAX_BODY_BYTES, () => new SesError(413, 'BadRequestException', 'The message is larger than SES takes'));
    if (req.method === 'GET' && url.pathname === '/_local/messages') return sendJson(res, 200, { messages: index });
    if (req.method === 'GET' && url.pathname.startsWith('/_local/messages/')) {
      return void serveInbox(req, res, url.pathname.replace('/_local/messages', '/_local/inbox'), '/_local/inbox');
    }
    if (serveInbox(req, res, url.pathname, '/_local/inbox')) return;
    res.setHeader('x-amzn-RequestId', randomUUID());
    if (req.method === 'POST' && url.pathname === '/v2/email/outbound-emails') {
      if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) {
        throw new SesError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}');
      } catch {
        throw new SesError(400, 'SerializationException', 'The request body is not valid JSON');
      }
      // SES's ids: hex time, a UUID and a suffix, e.g. 010001...-8c1e...-000000.
      const messageId = `${Date.now().toString(16).padStart(16, '0')}-${randomUUID()}-000000`;
      const mail = acceptSendEmail(parsed, messageId, new Date());
      writePrivateFile(path.join(root, mail.file), toMime(mail));
      index.push(mail);
      save();
      return sendJson(res, 200, { MessageId: messageId });
    }
    throw new SesError(404, 'NotFoundException', `This local SES does not answer ${req.method} ${url.pathname}`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      const known = error instanceof SesError ? error : undefined;
      if (!known) console.error('local SES:', error);
      res.setHeader('x-amzn-ErrorType', known?.type ?? 'InternalFailure');
      sendJson(res, known?.status ?? 500, { message: known?.message ?? 'An internal error occurred in the local SES.' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    messages: () => [...index],
    inbox: (req, res) => serveInbox(req, res, new URL(req.url ?? '/', 'http://local').pathname, '/_local/inbox'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
