import type { MailMessage, RenderedMail } from './message';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML, as an element's content or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => escapes[c]!);
}

/** The link's full address: the site's origin and the message's path (always one of our own pages). */
export function linkOf(siteOrigin: string, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`A mail's link must be a path on the site, got ${JSON.stringify(path)}`);
  return `${siteOrigin.replace(/\/+$/, '')}${path}`;
}

/**
 * A header's value (the subject) on one line: names in it are what people typed, and SES refuses a
 * whole message whose header holds a line break, so the person would get no mail at all. Every
 * control character (C0, DEL, C1, the Unicode line and paragraph separators) becomes a space,
 * runs of them and the spaces around them one space.
 */
export function headerText(value: string): string {
  return value.replace(/[ \p{Cc}\u2028\u2029]*[\p{Cc}\u2028\u2029][ \p{Cc}\u2028\u2029]*/gu, ' ').trim();
}

/**
 * The message as plain text and as simple HTML saying the same: short paragraphs, the one link as
 * a button (its address written out too, for mail readers that show no buttons), and who sent it.
 * Everything from the message is escaped: names and notes are what people typed.
 */
export function renderMail(message: MailMessage, siteOrigin: string, supportEmail: string): RenderedMail {
  const subject = headerText(message.subject);
  const link = message.action && { label: message.action.label, url: linkOf(siteOrigin, message.action.path) };
  const footer = `Fixly, home services on demand. Questions? Write to ${supportEmail}.`;
  const text = [
    ...message.paragraphs,
    ...(link ? [`${link.label}: ${link.url}`] : []),
    '--',
    footer,
  ].join('\n\n');
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1f2933;">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;">',
    ...message.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5;">${escapeHtml(p)}</p>`),
    ...(link
      ? [
          `<p style="margin:24px 0;"><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#2563eb;color:#ffffff;` +
            `text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold;">${escapeHtml(link.label)}</a></p>`,
          `<p style="margin:0 0 16px;font-size:13px;color:#52606d;">Or open this address: ${escapeHtml(link.url)}</p>`,
        ]
      : []),
    `<p style="margin:24px 0 0;font-size:13px;color:#52606d;">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { to: message.to, subject, text, html, kind: message.kind };
}
