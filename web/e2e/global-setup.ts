import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWeb } from '../../infra/local/static-site';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The production build of web/ the browser journeys are served (built once per run). */
    webDist: string;
  }
}

/**
 * The browser journeys run against the production build, as people meet it on CloudFront: built
 * once for the whole run here, then served by each journey's stack (WEB_DIST) under the strict CSP.
 */
export default async function setup(project: TestProject) {
  const dist = mkdtempSync(path.join(tmpdir(), 'marketplace-web-'));
  await buildWeb(dist);
  project.provide('webDist', dist);
  return () => rmSync(dist, { recursive: true, force: true });
}
