import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's own modules a source file loads, directly or through others: every relative
 * `import … from`, `export … from`, side-effect `import '…'` and `import('…')`, followed as esbuild
 * would bundle them (`import type` and `export type` load nothing at run time and are skipped).
 * Packages are not followed: what this answers is which of our modules end up in a function.
 */
export function ownModulesLoadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [path.resolve(entry)];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of relativeSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolveModule(path.dirname(file), specifier);
      if (target && !seen.has(target)) pending.push(target);
    }
  }
  return seen;
}

const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function relativeSpecifiers(source: string): string[] {
  return [...source.matchAll(STATIC), ...source.matchAll(DYNAMIC)].map((m) => m[1]!);
}

function resolveModule(fromDir: string, specifier: string): string | undefined {
  const base = path.resolve(fromDir, specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  // `./x.js` written for ESM resolves to x.ts.
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && /\.(ts|tsx)$/.test(c));
}
