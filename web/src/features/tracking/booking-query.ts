interface TrackAddress {
  pathname: string;
  search: string;
  hash: string;
}

const idIn = (params: string) => new URLSearchParams(params).get('id')?.trim() ?? '';

/**
 * The job a /track address names (a job's id or a booking's), as the page reads it: from the
 * fragment (#id=), which the browser never sends anywhere, else from the ?id= of a link mailed
 * before the id moved out of the query.
 */
export function trackedBookingId({ search, hash }: Pick<TrackAddress, 'search' | 'hash'>): string {
  return idIn(hash.replace(/^#/, '')) || idIn(search);
}

/**
 * Where an old /track?id= address moves to once the page has loaded: the same page with the id in
 * the fragment and out of the query (so it leaves the history and any later Referer), the rest of
 * the query kept. Null when the query holds no id.
 */
export function fragmentAddress(address: TrackAddress): string | null {
  const query = new URLSearchParams(address.search);
  if (!query.has('id')) return null;
  const id = trackedBookingId(address);
  query.delete('id');
  const rest = query.toString();
  return `${address.pathname}${rest ? `?${rest}` : ''}${id ? `#id=${encodeURIComponent(id)}` : ''}`;
}
