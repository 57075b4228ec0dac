import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/routes';
import { queryKeyUrl } from './lib/endpoint';

/**
 * The HTML of one route's first screen, rendered at build time (web/vite-prerender.ts) with the same
 * tree main.tsx hydrates: no data (queries stay pending, as in the browser before the first answer),
 * lazy screens waited for. Nothing the page needs only after hydration (the realtime socket, toasts,
 * the home page's request section) renders here.
 */
export async function renderPage(url: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <StaticRouter location={url}>
        <AppRoutes />
      </StaticRouter>
    </StrictMode>,
    // One piece: React would otherwise move a large boundary's content to the end of the HTML and
    // reveal it with an inline script, which the strict CSP refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The API GETs the last rendered screen started as it mounted (its queries), so its page can preload
 * them. Imported only now: a screen that reads no API must not have loaded the query client.
 */
export async function queriesStarted(): Promise<string[]> {
  const { queryClient } = await import('./lib/query-client');
  const urls = queryClient.getQueryCache().getAll().map((q) => queryKeyUrl(q.queryKey));
  queryClient.clear();
  return urls;
}
