/**
 * API reads started before React (main.tsx, for what the address names: app/route-data.ts) and
 * handed to the first query that asks for the same URL, so a screen's data is on its way while the
 * page hydrates. A link preload cannot do this reliably: the browser drops an unused preload of a
 * no-store answer at the load event, and a slow hydration asks after it, fetching twice.
 * No imports: it runs in the entry chunk.
 */

/** How every API read is sent (lib/api.ts's query function uses the same). */
export const apiReadInit: RequestInit = { credentials: 'include', headers: { accept: 'application/json' } };

/** An answer older than this is not handed out: the screen asked for its data later than the page's start. */
const FRESH_MS = 10_000;

const started = new Map<string, { at: number; response: Promise<Response> }>();

export function fetchEarly(url: string): void {
  const response = fetch(url, apiReadInit);
  // Nobody may take it (the visitor left first); its failure is the taker's to report, not the console's.
  response.catch(() => undefined);
  started.set(url, { at: Date.now(), response });
}

/** The early answer for `url`, once: later reads of it go to the network. */
export function takeEarlyFetch(url: string): Promise<Response> | undefined {
  const early = started.get(url);
  started.delete(url);
  return early && Date.now() - early.at < FRESH_MS ? early.response : undefined;
}
