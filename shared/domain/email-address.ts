/**
 * Whether mail to a well-formed address could ever arrive, judged from the address alone (no
 * network: the forms answer as the person types, and the server the same way). An address that
 * cannot receive mail is refused where it is typed, since every confirmation, link and receipt the
 * product sends would be lost without anyone knowing.
 */

/**
 * Top-level names reserved so that they never reach the public mail system (RFC 2606, 6761, 6762:
 * `invalid`, `localhost`, `local`; `internal` and `arpa` are private or infrastructure). The
 * reserved names for testing and documentation (`.test`, `.example`, example.com) stay allowed:
 * the samples and tests write to them, and the local SES keeps what is sent there.
 */
const NO_MAIL_TLDS = new Set(['invalid', 'localhost', 'local', 'internal', 'arpa']);

/** The big mailbox providers, by the misspellings people type most; the value is what they meant. */
const MISSPELT_DOMAINS: Record<string, string> = {
  'gmial.com': 'gmail.com',
  'gmai.com': 'gmail.com',
  'gmal.com': 'gmail.com',
  'gnail.com': 'gmail.com',
  'gamil.com': 'gmail.com',
  'gmaill.com': 'gmail.com',
  'gmail.co': 'gmail.com',
  'gmail.cm': 'gmail.com',
  'gmail.om': 'gmail.com',
  'hotmial.com': 'hotmail.com',
  'hotmal.com': 'hotmail.com',
  'hotmai.com': 'hotmail.com',
  'hotmail.co': 'hotmail.com',
  'hotmil.com': 'hotmail.com',
  'yaho.com': 'yahoo.com',
  'yahooo.com': 'yahoo.com',
  'yhoo.com': 'yahoo.com',
  'yahoo.co': 'yahoo.com',
  'outlok.com': 'outlook.com',
  'outloo.com': 'outlook.com',
  'outlook.co': 'outlook.com',
  'iclod.com': 'icloud.com',
  'icoud.com': 'icloud.com',
  'icloud.co': 'icloud.com',
  'aol.co': 'aol.com',
};

/** Misspellings of `.com` that are no top-level domain at all. */
const COM_MISSPELLINGS = new Set(['con', 'cmo', 'ocm', 'vom', 'xom', 'comm', 'coom']);

/**
 * Why mail to this (well-formed) address could not arrive, as a sentence the person can act on, or
 * undefined when nothing is known against it. The suggestion, where there is one, is the address
 * with the domain they most likely meant.
 */
export function undeliverableReason(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at < 1) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  const meant = MISSPELT_DOMAINS[domain];
  if (meant) return `Mail to ${domain} cannot arrive. Did you mean ${local}@${meant}?`;
  const labels = domain.split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (labels.length < 2) return 'That address has no domain we can send to (like name@example.com). Please check it.';
  if (COM_MISSPELLINGS.has(tld)) return `Mail to .${tld} cannot arrive. Did you mean ${local}@${labels.slice(0, -1).join('.')}.com?`;
  if (NO_MAIL_TLDS.has(tld)) return `Mail to a .${tld} address cannot arrive from the Internet. Please use an address you read mail at.`;
  return undefined;
}
