import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { functionAreas, functionFile } from '../../shared/function-files';

// The import boundaries are only as good as the configuration that names the folders: a renamed
// folder or a mistyped selector makes the rule pass everything in silence. These cases lint small
// snippets as if they lived at a path in the repository, against files that exist there.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

function sourceFileOf(feature: string): string {
  const dir = path.join(root, 'web/src/features', feature);
  const file = readdirSync(dir).find((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'));
  if (!file) throw new Error(`web/src/features/${feature} has no source file to import`);
  return file.replace(/\.tsx?$/, '');
}

describe('the import boundaries the linter keeps', () => {
  it('imports the files the cases below point at', () => {
    // Prepare
    const targets = [
      'functions/common/errors.ts',
      'functions/common/auth/sessions.ts',
      'functions/common/data/query.ts',
      'functions/bookings/estimates.ts',
      'functions/bookings/create-booking.ts',
      'functions/workers/data/workers.ts',
      'functions/jobs/accept-job.ts',
      'infra/site-cache.ts',
      'infra/local/stack.ts',
      'infra/testing/local-process.ts',
      'shared/routes.ts',
    ];

    // Act
    const missing = targets.filter((file) => !existsSync(path.join(root, file)));

    // Assess
    expect(missing).toEqual([]);
  });

  it('reports shared code importing a function', async () => {
    // Act
    const errors = await boundaryErrors('shared/boundary-case.ts', "import { ConflictError } from '../functions/common/errors';\nexport const e = ConflictError;\n");

    // Assess
    expect(errors).toEqual([expect.stringContaining('shared/')]);
  });

  it('reports shared code importing only a type from the infrastructure', async () => {
    // Act
    const errors = await boundaryErrors('shared/domain/boundary-case.ts', "import type { LocalStack } from '../../infra/local/stack';\nexport type S = LocalStack;\n");

    // Assess
    expect(errors).toHaveLength(1);
  });

  it('reports browser code importing the infrastructure', async () => {
    // Act
    const errors = await boundaryErrors('web/src/lib/boundary-case.ts', "import { IMMUTABLE_CACHE_CONTROL } from '../../../infra/site-cache';\nexport const c = IMMUTABLE_CACHE_CONTROL;\n");

    // Assess
    expect(errors).toEqual([expect.stringContaining('web/src')]);
  });

  it('reports a handler importing the local runtime', async () => {
    // Act
    const errors = await boundaryErrors('functions/boundary-case.ts', "import { startLocalStack } from '../infra/local/stack';\nexport const s = startLocalStack;\n");

    // Assess
    expect(errors).toEqual([expect.stringContaining('local runtime')]);
  });

  it('knows as handler files exactly the files of the functions the manifest names', async () => {
    // Prepare
    const manifestFiles = Object.keys(functionAreas).map(functionFile).sort();

    // Act
    const config = await eslint.calculateConfigForFile(path.join(root, 'functions/common/http.ts'));
    const handlerFiles = config.settings['boundaries/files'].find((files: { category: string }) => files.category === 'handler')?.pattern;

    // Assess
    expect([...(handlerFiles ?? [])].sort()).toEqual(manifestFiles);
  });

  it('reports common backend code importing an area', async () => {
    // Act
    const fromCommon = await boundaryErrors('functions/common/boundary-case.ts', "import { estimateRates } from '../bookings/estimates';\nexport const r = estimateRates;\n");
    const fromAuth = await boundaryErrors('functions/common/auth/boundary-case.ts', "import { workersRepo } from '../../workers/data/workers';\nexport const w = workersRepo;\n");

    // Assess
    expect(fromCommon).toEqual([expect.stringContaining('imports no area')]);
    expect(fromAuth).toEqual([expect.stringContaining('imports no area')]);
  });

  it('reports the data-access primitives importing the auth stores', async () => {
    // Act
    const errors = await boundaryErrors('functions/common/data/boundary-case.ts', "import { sessions } from '../auth/sessions';\nexport const s = sessions;\n");

    // Assess
    expect(errors).toEqual([expect.stringContaining('functions/common/auth')]);
  });

  it("reports production code importing a handler file, another area's or its own area's", async () => {
    // Act
    const fromOtherArea = await boundaryErrors('functions/jobs/boundary-case.ts', "import { handler } from '../bookings/create-booking';\nexport const h = handler;\n");
    const fromOwnArea = await boundaryErrors('functions/jobs/boundary-case.ts', "import { handler } from './accept-job';\nexport const h = handler;\n");
    const fromInfra = await boundaryErrors('infra/boundary-case.ts', "import { handler } from '../functions/jobs/accept-job';\nexport const h = handler;\n");

    // Assess
    expect(fromOtherArea).toEqual([expect.stringContaining('entry point')]);
    expect(fromOwnArea).toEqual([expect.stringContaining('entry point')]);
    expect(fromInfra).toEqual([expect.stringContaining('entry point')]);
  });

  it('reports a feature importing another feature', async () => {
    // Prepare
    const [own, other] = readdirSync(path.join(root, 'web/src/features')).sort();
    const code = `import * as other from '../${other}/${sourceFileOf(other!)}';\nexport const o = other;\n`;

    // Act
    const errors = await boundaryErrors(`web/src/features/${own}/boundary-case.tsx`, code);

    // Assess
    expect(errors).toEqual([expect.stringContaining('another feature')]);
  });

  it('reports a domain widget importing a feature, and generic UI importing a domain widget', async () => {
    // Prepare
    const [feature] = readdirSync(path.join(root, 'web/src/features')).sort();
    const fromDomain = `import * as f from '../../features/${feature}/${sourceFileOf(feature!)}';\nexport const x = f;\n`;
    const fromComponents = "import * as d from '../../domain/invoices/invoice-rules';\nexport const x = d;\n";

    // Act
    const domainErrors = await boundaryErrors('web/src/domain/jobs/boundary-case.tsx', fromDomain);
    const componentErrors = await boundaryErrors('web/src/components/ui/boundary-case.tsx', fromComponents);

    // Assess
    expect(domainErrors).toEqual([expect.stringContaining('import neither')]);
    expect(componentErrors).toEqual([expect.stringContaining('generic UI')]);
  });

  it('allows the imports the layout is built on', async () => {
    // Prepare
    const [feature] = readdirSync(path.join(root, 'web/src/features')).sort();
    const cases: [string, string][] = [
      ['shared/boundary-case.ts', "import { z } from 'zod';\nimport * as routes from './routes';\nexport const s = [z, routes];\n"],
      ['web/src/lib/boundary-case.ts', "import * as routes from '../../../shared/routes';\nexport const r = routes;\n"],
      ['web/src/app/boundary-case.tsx', `import * as f from '../features/${feature}/${sourceFileOf(feature!)}';\nexport const a = f;\n`],
      ['functions/boundary-case.test.ts', "import { startLocalStack } from '../infra/local/stack';\nexport const s = startLocalStack;\n"],
      ['web/e2e/boundary-case.test.ts', "import * as p from '../../infra/testing/local-process';\nexport const l = p;\n"],
      ['functions/jobs/boundary-case.ts', "import { estimateRates } from '../bookings/estimates';\nimport { workersRepo } from '../workers/data/workers';\nexport const j = [estimateRates, workersRepo];\n"],
      ['functions/bookings/boundary-case.ts', "import { sessions } from '../common/auth/sessions';\nimport { queryAll } from '../common/data/query';\nexport const b = [sessions, queryAll];\n"],
      ['functions/common/auth/boundary-case.ts', "import { queryAll } from '../data/query';\nexport const a = queryAll;\n"],
      ['functions/jobs/boundary-case.test.ts', "import { handler } from '../bookings/create-booking';\nimport { handler as accept } from './accept-job';\nexport const t = [handler, accept];\n"],
      ['functions/common/boundary-case.test.ts', "import { handler } from '../bookings/create-booking';\nexport const t = handler;\n"],
      ['functions/testing/boundary-case.ts', "import { handler } from '../bookings/create-booking';\nexport const t = handler;\n"],
      [`web/src/features/${feature}/boundary-case.tsx`, `import * as own from './${sourceFileOf(feature!)}';\nexport const f = own;\n`],
    ];

    // Act
    const errors = await Promise.all(cases.map(([file, code]) => boundaryErrors(file, code)));

    // Assess
    expect(errors).toEqual(cases.map(() => []));
  });
});
