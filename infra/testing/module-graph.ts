import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

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
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  // `./x.js` written for ESM resolves to x.ts.
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && /\.(ts|tsx)$/.test(c));
}

/**
 * Every relative import between the TypeScript files under `dirs` (repository-relative paths, both
 * ends), types included: `import`, `import type`, `export … from`, `import('…')` and
 * `typeof import('…')`. Read from the syntax tree, not by pattern, so an import written across
 * lines or quoted inside a string is taken for what it is.
 */
export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((dir) => sourceFilesUnder(path.join(root, dir)))) {
    const targets = relativeImportsOf(file)
      .map((specifier) => resolveModule(path.dirname(file), specifier))
      .filter((target): target is string => target !== undefined);
    graph.set(path.relative(root, file), [...new Set(targets.map((target) => path.relative(root, target)))]);
  }
  return graph;
}

/**
 * The import cycles of a graph, each as the chain of files from one back to itself. Every file that
 * lies on a cycle lies on at least one chain returned (the shortest through it), so a tangle of
 * several loops is named loop by loop rather than as one heap of files.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const named = new Set<string>();
  for (const group of stronglyConnected(graph)) {
    const members = new Set(group);
    for (const start of [...group].sort()) {
      if (named.has(start)) continue;
      const cycle = shortestLoop(graph, start, members);
      if (!cycle) continue;
      cycle.forEach((file) => named.add(file));
      cycles.push([...cycle, start]);
    }
  }
  return cycles;
}

function sourceFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFilesUnder(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function relativeImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node) && node.text.startsWith('.')) specifiers.push(node.text);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) literal(statement.moduleSpecifier);
  }
  // Only a file that mentions import( can hold a dynamic import or an import type, so the others
  // are not walked.
  if (text.includes('import(')) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return specifiers;
}

/** Tarjan's algorithm: the groups of files that all reach each other, a group of one only if it imports itself. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, order.get(next)!));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return groups;
}

/** The shortest chain from `start` back to it within `members`, without the closing `start`. */
function shortestLoop(graph: Map<string, string[]>, start: string, members: Set<string>): string[] | undefined {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const chain = [file];
        while (chain[0] !== start) chain.unshift(cameFrom.get(chain[0]!)!);
        return chain;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}
