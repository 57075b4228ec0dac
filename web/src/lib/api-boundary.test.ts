import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const webSrc = fileURLToPath(new URL('..', import.meta.url));

/**
 * The modules that may spell an API path: the typed client, its endpoint types, and the query keys.
 * Everywhere else a screen names a route as "METHOD /api/…", which the typecheck holds to the route
 * manifest; a bare "/api/…" string would be a URL nothing checks.
 */
const clientModules = new Set(['lib/api.ts', 'lib/endpoint.ts', 'lib/query-keys.ts']);

/** A string literal (quoted or a template) that starts with /api: a URL built by hand. */
const handBuiltApiUrl = /['"`]\/api(?:[/?'"`$])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('how the web reaches the API', () => {
  it('names every route through the typed client, never by a hand-built "/api/…" string', () => {
    // Prepare
    const files = sourceFiles(webSrc).filter((file) => !clientModules.has(relative(webSrc, file).split('\\').join('/')));

    // Act
    const offending = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, at: `${relative(webSrc, file)}:${index + 1}` }))
        .filter(({ line }) => handBuiltApiUrl.test(line) && !line.trimStart().startsWith('*') && !line.trimStart().startsWith('//'))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );

    // Assess
    expect(files.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });

  it('recognises a hand-built URL and lets a route name through', () => {
    expect(["apiGet('/api/jobs')", 'fetch(`/api/jobs/${id}`)', "['/api', 'jobs']", 'fetch("/api?x")'].map((line) => handBuiltApiUrl.test(line))).toEqual([true, true, true, true]);
    expect(["api('GET /api/jobs/{id}', { params: { id } })", "'/apiary'"].map((line) => handBuiltApiUrl.test(line))).toEqual([false, false]);
  });
});
