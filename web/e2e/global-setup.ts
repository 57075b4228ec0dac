import type { TestProject } from 'vitest/node';
import { ensureSiteBuildQuietly } from '../../infra/testing/quiet-site-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The production build of web/ the browser journeys are served. */
    webDist: string;
  }
}

/**
 * The browser journeys run against the production build, as people meet it on CloudFront. It is
 * `npm start`'s own build (built here only when the sources changed since the last one), so a
 * journey that starts the stack as a person does finds it fresh and builds nothing, and a rerun
 * with unchanged sources builds nothing at all.
 */
export default async function setup(project: TestProject) {
  project.provide('webDist', await ensureSiteBuildQuietly());
}
