import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import { prerenderedPages } from './src/app/prerendered-pages';

const ROOT_ELEMENT = '<div id="root"></div>';

/** The chunks a chunk loads before it runs: itself and its static imports, transitively. */
function staticClosure(bundle: Rollup.OutputBundle, fileName: string, into = new Set<string>()): Set<string> {
  if (into.has(fileName)) return into;
  into.add(fileName);
  const chunk = bundle[fileName];
  if (chunk?.type === 'chunk') for (const imported of chunk.imports) staticClosure(bundle, imported, into);
  return into;
}

/**
 * One route's first screen, rendered by a Vite server of its own in SSR mode, with every module the
 * render loaded: a fresh server per route, so the lazy screens and layouts it shares with a route
 * rendered before it count for it too.
 */
async function renderInFreshServer(config: ResolvedConfig, url: string) {
  const server = await createServer({
    configFile: config.configFile,
    root: config.root,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const { renderPage, queriesStarted } = (await server.ssrLoadModule('/src/prerender.tsx')) as typeof import('./src/prerender');
    const html = await renderPage(url);
    // The graph also holds modules only named by an import() not run yet: loaded means transformed.
    const modulesLoaded = [...server.environments.ssr.moduleGraph.idToModuleMap].filter(([, m]) => m.transformResult).map(([id]) => id);
    return { html, modulesLoaded, apiGets: await queriesStarted() };
  } finally {
    await server.close();
  }
}

/**
 * Writes the first screen of each route of `prerenderedPages` into its own HTML file after the
 * client build: index.html with the route's markup in #root (marked with the URL it was rendered
 * for, so main.tsx knows it may hydrate it) and module preloads for the route's lazy chunks, which
 * hydration needs before it can finish. The markup comes from web/src/prerender.tsx, loaded through
 * a Vite server in SSR mode so it is the same source, transformed the same way; no script is added
 * to the HTML (the strict CSP allows none inline).
 */
export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'fixly-prerender',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler(options, bundle) {
        const outDir = options.dir ?? path.resolve(config.root, config.build.outDir);
        const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
        if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to prerender into`);
        const entry = Object.values(bundle).find((c): c is Rollup.OutputChunk => c.type === 'chunk' && c.isEntry);
        if (!entry) throw new Error('The client build has no entry chunk');
        const loadedByShell = staticClosure(bundle, entry.fileName);
        const lazyChunkOf = new Map(
          Object.values(bundle)
            .filter((c): c is Rollup.OutputChunk => c.type === 'chunk' && c.isDynamicEntry && Boolean(c.facadeModuleId))
            .map((c) => [c.facadeModuleId!, c.fileName]),
        );

        for (const [url, file] of Object.entries(prerenderedPages)) {
          const page = await renderInFreshServer(config, url);
          // React puts a preload for the page's images first; index.html preloads the poster already.
          const markup = page.html.replace(/^(<link rel="preload"[^>]*\/>)+/, '');
          const preloads = new Set<string>();
          for (const id of page.modulesLoaded) {
            const chunk = lazyChunkOf.get(id);
            if (chunk) staticClosure(bundle, chunk, preloads);
          }
          const links = [
            // The screen's API calls start with the HTML, not after hydration; the credentials mode
            // is the api client's (credentials: 'include'), so its fetch takes the preloaded answer.
            ...page.apiGets.map((get) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${get}">`),
            // Low priority: the first paint is the HTML's and needs only the stylesheet, and hydration
            // starts with the entry and React; the screen's own chunks come after those, not beside them.
            ...[...preloads]
              .filter((f) => !loadedByShell.has(f))
              .map((f) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${config.base}${f}">`),
          ].join('\n    ');
          const html = shell
            .replace('</head>', `${links ? `  ${links}\n  ` : ''}</head>`)
            .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${url}">${markup}</div>`);
          const target = path.join(outDir, file);
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, html);
        }
      },
    },
  };
}
