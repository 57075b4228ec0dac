import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';

export interface WebResult {
  /** Every JavaScript file the browser loads before '/' can run, and its gzip size. */
  initialJs: { file: string; gzip: number }[];
  css: { file: string; gzip: number }[];
}

export function requireWebConfig(configFile: string): void {
  if (!existsSync(configFile)) {
    throw new Error(
      `No Vite config at ${configFile}: the web app cannot be built, so its initial JavaScript cannot be measured.\n` +
        'Add web/vite.config.ts (or point BENCH_WEB_CONFIG at another config) and run the benchmark again.',
    );
  }
}

export async function buildWeb(configFile: string, outDir: string): Promise<void> {
  requireWebConfig(configFile);
  await viteBuild({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

interface Tag {
  name: string;
  attrs: Record<string, string>;
}

/** The <script> and <link> tags of an HTML file; Vite's output is regular enough for a tag scan. */
function scriptAndLinkTags(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const [, name, rest] of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs: Record<string, string> = {};
    for (const [, key, dq, sq, bare] of rest!.matchAll(/([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attrs[key!.toLowerCase()] = dq ?? sq ?? bare ?? '';
    }
    tags.push({ name: name!.toLowerCase(), attrs });
  }
  return tags;
}

/**
 * The output file a URL names, or undefined if it is not part of this build (another origin, a
 * bare specifier). A root-relative URL may carry Vite's `base` prefix, which is not a directory
 * in the output, so leading segments are dropped until a file matches.
 */
function resolveUrl(outDir: string, fromDir: string, url: string): string | undefined {
  const clean = url.split(/[?#]/)[0]!;
  if (/^[a-z][\w+.-]*:|^\/\//i.test(clean)) return undefined;
  if (!clean.startsWith('/')) {
    if (!clean.startsWith('.')) return undefined;
    const file = path.resolve(fromDir, clean);
    return existsSync(file) ? file : undefined;
  }
  const segments = clean.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const file = path.join(outDir, ...segments.slice(i));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * Static import specifiers of a built chunk (`import ... from`, `import "x"`, `export ... from`),
 * leaving out `import()`, which loads later. esbuild parses the chunk, so strings and comments
 * that merely look like imports are not counted.
 */
async function staticImports(file: string): Promise<string[]> {
  const result = await esbuild({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
    plugins: [
      {
        name: 'externalize-all',
        setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'entry-point' ? undefined : { path: a.path, external: true })),
      },
    ],
  });
  return Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
  );
}

/** What '/' loads up front: entry scripts, modulepreloads, and all they import statically. */
export async function measureInitialLoad(outDir: string): Promise<WebResult> {
  const htmlFile = path.join(outDir, 'index.html');
  if (!existsSync(htmlFile)) throw new Error(`The web build produced no ${htmlFile}`);
  const tags = scriptAndLinkTags(readFileSync(htmlFile, 'utf8'));
  const resolve = (url: string | undefined) => (url ? resolveUrl(outDir, outDir, url) : undefined);

  const pending = tags
    .map((t) =>
      t.name === 'script' && t.attrs.type === 'module'
        ? resolve(t.attrs.src)
        : t.name === 'link' && t.attrs.rel === 'modulepreload'
          ? resolve(t.attrs.href)
          : undefined,
    )
    .filter((f): f is string => f !== undefined);
  const seen = new Set<string>();
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of await staticImports(file)) {
      const dep = resolveUrl(outDir, path.dirname(file), spec);
      if (dep) pending.push(dep);
    }
  }

  const css = tags
    .filter((t) => t.name === 'link' && t.attrs.rel === 'stylesheet')
    .map((t) => resolve(t.attrs.href))
    .filter((f): f is string => f !== undefined);
  const sized = (files: Iterable<string>) =>
    [...files].sort().map((file) => ({ file: path.relative(outDir, file), gzip: gzipBytes(file) }));
  return { initialJs: sized(seen), css: sized(new Set(css)) };
}
