import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/routes';
import { queryKeyUrl } from './lib/api';
import { queryClient } from './lib/query-client';

export interface RenderedPage {
  html: string;
  /** The API GETs the screen starts as it mounts (its queries), so the page can preload them. */
  apiGets: string[];
}

/**
 * The HTML of one route's first screen, rendered at build time (web/vite-prerender.ts) with the same
 * tree main.tsx hydrates: no data (queries stay pending, as in the browser before the first answer),
 * lazy screens waited for. Nothing the page needs only after hydration (the realtime socket, toasts,
 * the home page's request section) renders here.
 */
export async function renderPage(url: string): Promise<RenderedPage> {
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
  const queries = queryClient.getQueryCache().getAll();
  queryClient.clear();
  return { html: Buffer.concat(chunks).toString('utf8'), apiGets: queries.map((q) => queryKeyUrl(q.queryKey)) };
}
