import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileForPath } from '../local/static-site';
import { figuresOf, lighthouseTable, medianFigures } from './lighthouse';
import { replaceBetweenMarkers } from './report';

const run = (score: number, lcpMs: number, tbtMs: number, cls: number) => ({ score, lcpMs, tbtMs, cls, benchmarkIndex: 1000 });

describe('Lighthouse figures', () => {
  it('takes the score (0–100) and the three metrics from a result', () => {
    const lhr = {
      categories: { performance: { score: 0.97 } },
      audits: {
        'largest-contentful-paint': { numericValue: 1800.4 },
        'total-blocking-time': { numericValue: 40 },
        'cumulative-layout-shift': { numericValue: 0.01 },
      },
      environment: { benchmarkIndex: 1500 },
    };
    expect(figuresOf(lhr)).toEqual({ score: 97, lcpMs: 1800.4, tbtMs: 40, cls: 0.01, benchmarkIndex: 1500 });
  });

  it('fails on a run Lighthouse could not complete instead of reporting a zero', () => {
    const lhr = { categories: { performance: { score: null } }, audits: {}, runtimeError: { code: 'NO_FCP', message: 'The page did not paint' } };
    expect(() => figuresOf(lhr)).toThrow('NO_FCP');
    expect(() => figuresOf({ categories: { performance: { score: 0.5 } }, audits: {} })).toThrow('largest-contentful-paint');
  });

  it('takes the median of each metric on its own', () => {
    expect(medianFigures([run(90, 3000, 10, 0.2), run(99, 1000, 300, 0), run(95, 2000, 20, 0.01)])).toEqual(run(95, 2000, 20, 0.01));
    expect(medianFigures([run(90, 1000, 0, 0), run(96, 3000, 100, 0.1)]).score).toBe(93);
    expect(() => medianFigures([])).toThrow();
  });

  it('prints the medians with the targets and every run', () => {
    const table = lighthouseTable(
      [
        { route: '/', runs: [run(96, 1500, 30, 0), run(97, 1400, 20, 0), run(90, 2500, 200, 0)], median: run(96, 1500, 30, 0) },
        { route: '/track', runs: [run(80, 3000, 600, 0.2)], median: run(80, 3000, 600, 0.2) },
      ],
      3,
    );
    expect(table).toContain('| /                  |    96 | 1.50 s |  30 ms | 0.000 | PASS       | PASS       | 96, 97, 90         |');
    expect(table).toContain('| /track             |    80 | 3.00 s | 600 ms | 0.200 | **OVER**   | **OVER**   | 80                 |');
    expect(table).toContain('1000–1000');
  });
});

describe('the static server of the production build', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'bench-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
  writeFileSync(path.join(dist, 'assets', 'index-abc.js'), '');
  writeFileSync(path.join(dist, 'sw.js'), '');
  mkdirSync(path.join(dist, 'pages'));
  for (const page of ['home', 'services', 'book', 'track']) writeFileSync(path.join(dist, 'pages', `${page}.html`), page);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('answers files as they are, prerendered routes with their page and other app routes with index.html, as CloudFront does', () => {
    expect(fileForPath(dist, '/assets/index-abc.js')).toBe(path.join(dist, 'assets', 'index-abc.js'));
    expect(fileForPath(dist, '/sw.js')).toBe(path.join(dist, 'sw.js'));
    expect(fileForPath(dist, '/track?id=abc')).toBe(path.join(dist, 'pages', 'track.html'));
    expect(fileForPath(dist, '/')).toBe(path.join(dist, 'pages', 'home.html'));
    expect(fileForPath(dist, '/services')).toBe(path.join(dist, 'pages', 'services.html'));
    expect(fileForPath(dist, '/worker/dashboard')).toBe(path.join(dist, 'index.html'));
    expect(fileForPath(dist, '/services/plumbing')).toBe(path.join(dist, 'index.html'));
    expect(fileForPath(dist, '/index.html')).toBe(path.join(dist, 'index.html'));
  });

  it('answers a missing asset with nothing, not the app, and never leaves the build', () => {
    expect(fileForPath(dist, '/assets/gone-123.js')).toBeUndefined();
    expect(fileForPath(dist, '/favicon.ico')).toBeUndefined();
    expect(fileForPath(dist, '/../../sw.js')).toBe(path.join(dist, 'sw.js'));
  });
});

describe("the README's bench part", () => {
  it('is replaced between its markers, the prose around it kept', () => {
    const readme = 'before\n<!-- bench:web:start -->\nold table\n<!-- bench:web:end -->\nafter\n';
    expect(replaceBetweenMarkers(readme, 'bench:web', '| new |\n')).toBe(
      'before\n<!-- bench:web:start -->\n| new |\n<!-- bench:web:end -->\nafter\n',
    );
    expect(() => replaceBetweenMarkers('no markers', 'bench:web', 'x')).toThrow('bench:web:start');
  });
});
