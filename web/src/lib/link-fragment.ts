/**
 * A mailed link that is a credential (a password reset, a pro account's link) carries its secret in
 * the address's fragment (`…#token=…`), which the browser never sends to a server, so it reaches no
 * access log. The page reads it once and takes it out of the address bar, so it is not left in the
 * history or shown over a shoulder.
 */
export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return token ? token : undefined;
}

/** The page's own address without the fragment: what the address bar shows once the secret is read. */
export function withoutFragment(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}
