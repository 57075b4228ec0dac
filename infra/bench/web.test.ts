import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAppRoutes, routeLoads, routeVerdict, staticClosure, type Manifest } from './web';

/** A manifest as Vite writes it: an entry, lazy screens, chunks they share. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_jsx.js'],
    dynamicImports: ['src/features/services/services-page.tsx', 'src/lib/auth.ts', 'src/features/admin/admin-page.tsx'],
    css: ['assets/index.css'],
  },
  '_jsx.js': { file: 'assets/jsx.js' },
  '_card.js': { file: 'assets/card.js', imports: ['_jsx.js'] },
  '_icons.js': { file: 'assets/icons.js' },
  'src/features/services/services-page.tsx': {
    file: 'assets/services-page.js',
    isDynamicEntry: true,
    imports: ['_card.js', '_jsx.js'],
    dynamicImports: ['src/features/map/map.tsx'],
  },
  'src/features/map/map.tsx': { file: 'assets/map.js', isDynamicEntry: true },
  'src/lib/auth.ts': { file: 'assets/auth.js', isDynamicEntry: true, imports: ['_icons.js'] },
  'src/features/admin/admin-page.tsx': { file: 'assets/admin-page.js', isDynamicEntry: true, imports: ['_card.js', '_icons.js'] },
};

const sizes: Record<string, number> = {
  'assets/index.js': 90_000,
  'assets/jsx.js': 3_000,
  'assets/card.js': 500,
  'assets/icons.js': 1_000,
  'assets/services-page.js': 2_000,
  'assets/map.js': 40_000,
  'assets/auth.js': 700,
  'assets/admin-page.js': 60_000,
};
const sizeOf = (file: string) => sizes[file]!;

describe('the per-route chunk walk', () => {
  it('follows static imports transitively, each file once, and never import()', () => {
    expect([...staticClosure(manifest, ['src/features/services/services-page.tsx'])].sort()).toEqual([
      'assets/card.js',
      'assets/jsx.js',
      'assets/services-page.js',
    ]);
  });

  it('says which chunk is missing rather than undercounting', () => {
    expect(() => staticClosure(manifest, ['src/nope.tsx'])).toThrow('"src/nope.tsx"');
  });

  it("counts the entry for every route, a route's lazy modules (its layout's first) on top, and what only they add as its own", () => {
    const loads = routeLoads(
      manifest,
      [
        { path: '/', component: 'Landing', lazyModules: [] },
        { path: '/services', component: 'Services', lazyModules: ['src/features/services/services-page'] },
        { path: '/admin', component: 'Admin', lazyModules: ['src/lib/auth', 'src/features/admin/admin-page'] },
      ],
      sizeOf,
    );
    const [landing, services, admin] = loads;
    expect(landing!.initial.map((f) => f.file)).toEqual(['assets/index.js', 'assets/jsx.js']);
    expect(landing!.own).toEqual([]);
    expect(services!.initial.map((f) => f.file)).toEqual(['assets/card.js', 'assets/index.js', 'assets/jsx.js', 'assets/services-page.js']);
    // The lazily loaded map is not part of the route's first load; the shared jsx runtime is the entry's.
    expect(services!.own).toEqual([
      { file: 'assets/card.js', gzip: 500 },
      { file: 'assets/services-page.js', gzip: 2_000 },
    ]);
    expect(admin!.own.map((f) => f.file)).toEqual(['assets/admin-page.js', 'assets/auth.js', 'assets/card.js', 'assets/icons.js']);
  });

  it('shares one row between aliases of a screen', () => {
    const loads = routeLoads(
      manifest,
      [
        { path: '/a', component: 'Services', lazyModules: ['src/features/services/services-page'] },
        { path: '/b', component: 'Services', lazyModules: ['src/features/services/services-page'] },
      ],
      sizeOf,
    );
    expect(loads.map((l) => l.paths)).toEqual([['/a', '/b']]);
  });

  it("judges '/' on all it loads and any other route on what it adds", () => {
    const [landing, services, admin] = routeLoads(
      manifest,
      [
        { path: '/', component: 'Landing', lazyModules: [] },
        { path: '/services', component: 'Services', lazyModules: ['src/features/services/services-page'] },
        { path: '/admin', component: 'Admin', lazyModules: ['src/features/admin/admin-page'] },
      ],
      sizeOf,
    );
    expect(routeVerdict(landing!).pass).toBe(true); // 93,000 bytes ≤ 100 KB
    expect(routeVerdict(services!).pass).toBe(true);
    expect(routeVerdict(admin!)).toEqual({ pass: false, target: 'own ≤ 50 KB' }); // 61,500 bytes > 50 KB
  });

  it('reads the routes of a router file: literal, imported and mapped paths, layouts and lazy modules', async () => {
    const file = path.join(import.meta.dirname, 'fixtures/routes.tsx.txt');
    // Its lazy imports ('../features/…') resolve from fixtures/ to this folder, the "Vite root" here.
    const routes = await readAppRoutes(file, import.meta.dirname, async (specifier, name) => {
      expect([specifier, name]).toEqual(['./paths', 'patterns']);
      return { home: '/', admin: '/admin', insurance: '/insurance', download: '/download' };
    });
    expect(routes).toEqual([
      { path: '/', component: 'Landing', lazyModules: [] },
      { path: '/services', component: 'Services', lazyModules: ['features/services/services-page'] },
      { path: '/admin', component: 'Admin', lazyModules: ['lib/auth', 'features/admin/admin-page'] },
      { path: '/insurance', component: 'Upcoming', lazyModules: ['features/upcoming/upcoming'] },
      { path: '/cover', component: 'Upcoming', lazyModules: ['features/upcoming/upcoming'] },
      { path: '/download', component: 'Upcoming', lazyModules: ['features/upcoming/upcoming'] },
    ]);
  });
});
