import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { build as viteBuild } from 'vite';
import { kb, markdownTable, verdict } from './report';

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
  await viteBuild({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true } });
}

export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** One chunk of Vite's build manifest (`build.manifest: true`, `.vite/manifest.json`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The output files a set of manifest chunks load before they run: the chunks themselves and
 * everything they import statically, transitively (never `dynamicImports`, which load later).
 */
export function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const pending = [...keys];
  while (pending.length) {
    const key = pending.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk "${key}"`);
    files.add(chunk.file);
    pending.push(...(chunk.imports ?? []));
  }
  return files;
}

/** The manifest key of a source module, given its path relative to the Vite root without extension. */
export function manifestKeyOf(manifest: Manifest, modulePath: string): string {
  const candidates = ['', '.tsx', '.ts', '.jsx', '.js', '/index.tsx', '/index.ts'].map((ext) => `${modulePath}${ext}`);
  const key = candidates.find((k) => manifest[k]);
  if (!key) throw new Error(`The build manifest has no chunk for ${modulePath} (a lazy route's module)`);
  return key;
}

/** A route of the app: its path, the screen's component and the lazily loaded modules it needs. */
export interface AppRoute {
  path: string;
  component: string;
  /** Source modules (relative to the Vite root, no extension) loaded by `lazy()` for this route, layouts first. */
  lazyModules: string[];
}

export interface RouteLoad {
  paths: string[];
  component: string;
  /** Every file the route loads before its screen can render: the entry's closure plus its lazy modules'. */
  initial: { file: string; gzip: number }[];
  /** The files beyond the entry's closure: the route's own chunk and what only it imports. */
  own: { file: string; gzip: number }[];
}

/**
 * Initial JavaScript per route: the entry chunk (index.html) with its static imports, plus each
 * route's lazy chunks with theirs. Routes sharing a screen (aliases) share a row.
 */
export function routeLoads(manifest: Manifest, appRoutes: readonly AppRoute[], sizeOf: (file: string) => number): RouteLoad[] {
  const entryKeys = Object.entries(manifest)
    .filter(([, c]) => c.isEntry)
    .map(([k]) => k);
  if (!entryKeys.length) throw new Error('The build manifest has no entry chunk');
  const entry = staticClosure(manifest, entryKeys);
  const sized = (files: Iterable<string>) => [...files].sort().map((file) => ({ file, gzip: sizeOf(file) }));
  const rows = new Map<string, RouteLoad>();
  for (const route of appRoutes) {
    const id = `${route.component}\0${route.lazyModules.join('\0')}`;
    const existing = rows.get(id);
    if (existing) {
      existing.paths.push(route.path);
      continue;
    }
    const lazy = staticClosure(manifest, route.lazyModules.map((m) => manifestKeyOf(manifest, m)));
    rows.set(id, {
      paths: [route.path],
      component: route.component,
      initial: sized(new Set([...entry, ...lazy])),
      own: sized([...lazy].filter((f) => !entry.has(f))),
    });
  }
  return [...rows.values()];
}

type Value = string | number | boolean | undefined | Value[] | { [key: string]: Value };
type Env = ReadonlyMap<string, Value>;

/**
 * Every route a router file registers, read from its source: `<Route path=… element={<X />}>`
 * (nested layout routes without a path pass their lazy module on), with `const X = lazy(() =>
 * import('…'))` naming the module a screen loads. Paths may be literals, imported constants
 * (`patterns.home`) or come from `.map`/`.flatMap` over arrays declared in the file; the few
 * expressions that takes are evaluated here, and anything else is an error rather than a guess.
 *
 * `importValue` gives an imported binding's value (the bench imports the paths module itself).
 */
export async function readAppRoutes(
  file: string,
  viteRoot: string,
  importValue: (specifier: string, name: string) => Promise<Value>,
): Promise<AppRoute[]> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const consts = new Map<string, ts.Expression>();
  const imports = new Map<string, { specifier: string; name: string }>();
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer) consts.set(d.name.text, d.initializer);
      }
    } else if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      for (const el of statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)
        ? statement.importClause.namedBindings.elements
        : []) {
        imports.set(el.name.text, { specifier: statement.moduleSpecifier.text, name: (el.propertyName ?? el.name).text });
      }
    }
  }
  const fail = (node: ts.Node, why: string): never => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    throw new Error(`${path.basename(file)}:${line + 1}: ${why}: ${node.getText()}`);
  };

  /** The module `const X = lazy(() => import('…'))` loads, relative to the Vite root without extension. */
  const lazyModule = (component: string): string | undefined => {
    const init = consts.get(component);
    if (!init || !ts.isCallExpression(init) || init.expression.getText() !== 'lazy') return undefined;
    let specifier: string | undefined;
    const visit = (node: ts.Node): void => {
      if (specifier) return;
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [arg] = node.arguments;
        if (!arg || !ts.isStringLiteralLike(arg)) fail(node, 'a lazy import with a computed module');
        specifier = (arg as ts.StringLiteralLike).text;
      }
      node.forEachChild(visit);
    };
    visit(init);
    if (!specifier) fail(init, 'lazy() without an import()');
    const resolved = path.relative(viteRoot, path.resolve(path.dirname(file), specifier!));
    return resolved.split(path.sep).join('/').replace(/\.(tsx?|jsx?)$/, '');
  };

  const constValues = new Map<string, Value>();
  const evaluate = async (node: ts.Expression, env: Env): Promise<Value> => {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
      return evaluate(node.expression, env);
    }
    if (ts.isStringLiteralLike(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (ts.isArrayLiteralExpression(node)) return Promise.all(node.elements.map((e) => evaluate(e, env)));
    if (ts.isObjectLiteralExpression(node)) {
      const object: Record<string, Value> = {};
      for (const p of node.properties) {
        if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
          object[p.name.text] = await evaluate(p.initializer, env);
        } else if (ts.isShorthandPropertyAssignment(p)) object[p.name.text] = await evaluate(p.name, env);
        else fail(p, 'an object member the route reader does not follow');
      }
      return object;
    }
    if (ts.isIdentifier(node)) {
      const name = node.text;
      if (env.has(name)) return env.get(name);
      if (constValues.has(name)) return constValues.get(name);
      const init = consts.get(name);
      const imported = imports.get(name);
      if (init) constValues.set(name, await evaluate(init, new Map()));
      else if (imported) constValues.set(name, await importValue(imported.specifier, imported.name));
      else fail(node, 'an unknown name');
      return constValues.get(name);
    }
    if (ts.isPropertyAccessExpression(node)) {
      const object = await evaluate(node.expression, env);
      if (typeof object !== 'object' || object === null || Array.isArray(object)) fail(node, 'not an object');
      return (object as Record<string, Value>)[node.name.text];
    }
    return fail(node, 'an expression the route reader does not evaluate');
  };

  /** Binds an arrow function's single parameter (a name or a destructuring pattern) to a value. */
  const bind = (param: ts.ParameterDeclaration, value: Value, env: Env): Env => {
    const next = new Map(env);
    if (ts.isIdentifier(param.name)) next.set(param.name.text, value);
    else if (ts.isObjectBindingPattern(param.name)) {
      for (const el of param.name.elements) {
        const key = (el.propertyName ?? el.name).getText();
        if (!ts.isIdentifier(el.name)) fail(el, 'a nested destructuring pattern');
        next.set((el.name as ts.Identifier).text, (value as Record<string, Value>)[key]);
      }
    } else fail(param, 'a parameter pattern the route reader does not follow');
    return next;
  };

  const found: AppRoute[] = [];
  const attribute = (el: ts.JsxOpeningLikeElement, name: string) =>
    el.attributes.properties.find((a): a is ts.JsxAttribute => ts.isJsxAttribute(a) && a.name.getText() === name);
  const elementComponent = (attr: ts.JsxAttribute): string => {
    const init = attr.initializer;
    const jsx = init && ts.isJsxExpression(init) ? init.expression : undefined;
    if (jsx && (ts.isJsxSelfClosingElement(jsx) || ts.isJsxElement(jsx))) {
      return (ts.isJsxElement(jsx) ? jsx.openingElement : jsx).tagName.getText();
    }
    return fail(attr, 'a route element that is not a JSX element');
  };

  const walk = async (node: ts.Node, env: Env, parentPath: string, layouts: string[]): Promise<void> => {
    if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node)) {
      const opening = ts.isJsxElement(node) ? node.openingElement : node;
      if (opening.tagName.getText() === 'Route') {
        const pathAttr = attribute(opening, 'path');
        const elementAttr = attribute(opening, 'element');
        const component = elementAttr ? elementComponent(elementAttr) : undefined;
        let routePath = parentPath;
        if (pathAttr?.initializer) {
          const expr = ts.isJsxExpression(pathAttr.initializer) ? pathAttr.initializer.expression : pathAttr.initializer;
          const value = expr && (await evaluate(expr as ts.Expression, env));
          if (typeof value !== 'string') fail(pathAttr, 'a route path that is not a string');
          const p = value as string;
          routePath = p.startsWith('/') ? p : `${parentPath.replace(/\/$/, '')}/${p}`;
        }
        const lazy = component ? lazyModule(component) : undefined;
        const modules = lazy ? [...layouts, lazy] : layouts;
        if (component && (pathAttr || attribute(opening, 'index'))) {
          found.push({ path: routePath, component, lazyModules: modules });
        }
        if (ts.isJsxElement(node)) for (const child of node.children) await walk(child, env, routePath, modules);
        return;
      }
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['map', 'flatMap'].includes(node.expression.name.text)
    ) {
      const [callback] = node.arguments;
      if (callback && ts.isArrowFunction(callback) && callback.parameters[0]) {
        const items = await evaluate(node.expression.expression, env);
        if (!Array.isArray(items)) return fail(node.expression.expression, 'iterating something that is not an array');
        for (const item of items) await walk(callback.body, bind(callback.parameters[0], item, env), parentPath, layouts);
        return;
      }
    }
    for (const child of node.getChildren(source)) await walk(child, env, parentPath, layouts);
  };
  // Only the components' JSX: the top-level `const X = lazy(...)` and arrays are read on demand.
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement)) await walk(statement, new Map(), '', []);
  }
  if (!found.length) throw new Error(`${file}: no <Route path=… element=…> found`);
  return found;
}

export const MAX_LANDING_JS_GZIP = 100 * 1024;
export const MAX_ROUTE_CHUNK_GZIP = 50 * 1024;

export interface WebFigures {
  routes: RouteLoad[];
  /** The entry's stylesheets (render-blocking on every route). */
  css: { file: string; gzip: number }[];
}

/** A source module's file, given an import specifier without its extension. */
function sourceFile(base: string): string {
  const file = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => `${base}${ext}`).find((f) => existsSync(f) && !f.endsWith('/'));
  if (!file) throw new Error(`No source module at ${base}`);
  return file;
}

/** Per-route initial JavaScript of a build made by `buildWeb` (which writes the manifest). */
export async function measureRouteLoads(viteRoot: string, routerFile: string, outDir: string): Promise<WebFigures> {
  const manifestFile = path.join(outDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`The web build wrote no manifest at ${manifestFile}`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const appRoutes = await readAppRoutes(routerFile, viteRoot, async (specifier, name) => {
    if (!specifier.startsWith('.')) throw new Error(`A route path comes from the package ${specifier}; only the app's own modules are read`);
    const module = (await import(pathToFileURL(sourceFile(path.resolve(path.dirname(routerFile), specifier))).href)) as Record<string, unknown>;
    return module[name] as Value;
  });
  const size = (file: string) => gzipBytes(path.join(outDir, file));
  const css = Object.values(manifest)
    .filter((c) => c.isEntry)
    .flatMap((c) => c.css ?? []);
  return {
    routes: routeLoads(manifest, appRoutes, size),
    css: [...new Set(css)].map((file) => ({ file, gzip: size(file) })),
  };
}

const sum = (files: readonly { gzip: number }[]) => files.reduce((total, f) => total + f.gzip, 0);

/** The landing route is judged on all it loads; every other route on what it adds to the entry. */
export function routeVerdict(load: RouteLoad): { pass: boolean; target: string } {
  if (load.paths.includes('/')) return { pass: sum(load.initial) <= MAX_LANDING_JS_GZIP, target: `initial ≤ ${MAX_LANDING_JS_GZIP / 1024} KB` };
  return { pass: sum(load.own) <= MAX_ROUTE_CHUNK_GZIP, target: `own ≤ ${MAX_ROUTE_CHUNK_GZIP / 1024} KB` };
}

export function routeLoadTable(figures: WebFigures): string {
  return [
    markdownTable(
      [
        { title: 'Web route' },
        { title: 'Screen' },
        { title: 'Files', align: 'right' },
        { title: 'Initial JS (gzip -9)', align: 'right' },
        { title: 'Own chunks', align: 'right' },
        { title: 'Target' },
      ],
      figures.routes.map((load) => {
        const { pass, target } = routeVerdict(load);
        return [
          load.paths.join(', '),
          load.component,
          String(load.initial.length),
          kb(sum(load.initial)),
          kb(sum(load.own)),
          `${target}: ${verdict(pass)}`,
        ];
      }),
    ),
    '',
    'Initial JS: the entry chunk of index.html with all it imports statically, plus the route\'s `lazy()` ' +
      "modules (its layout's too) with theirs, from Vite's build manifest; `import()` inside them loads later and " +
      'is not counted. Own chunks: the part of that not already in the entry. Routes sharing a screen share a row. ' +
      `CSS, render-blocking on every route: ${figures.css.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ') || 'none'}.`,
  ].join('\n');
}
