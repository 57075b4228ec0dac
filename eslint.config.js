import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Which part of the repository a file belongs to. The first pattern that matches wins, so the
// narrower folders come before the folder that holds them.
const elements = [
  { type: 'functions-testing', pattern: 'functions/testing' },
  { type: 'functions-every-route', pattern: 'functions/every-route' },
  { type: 'functions-common-data', pattern: 'functions/common/data' },
  { type: 'functions-common-auth', pattern: 'functions/common/auth' },
  { type: 'functions-common', pattern: 'functions/common' },
  { type: 'functions-area', pattern: 'functions/*', capture: ['area'] },
  { type: 'functions', pattern: 'functions' },
  { type: 'infra-local', pattern: 'infra/local' },
  { type: 'infra-testing', pattern: 'infra/testing' },
  { type: 'infra-bench', pattern: 'infra/bench' },
  { type: 'infra-ops', pattern: 'infra/ops' },
  { type: 'infra', pattern: 'infra' },
  { type: 'shared', pattern: 'shared' },
  { type: 'web-feature', pattern: 'web/src/features/*', capture: ['feature'] },
  { type: 'web-app', pattern: 'web/src/app' },
  { type: 'web-domain', pattern: 'web/src/domain' },
  { type: 'web-components', pattern: 'web/src/components' },
  { type: 'web-lib', pattern: 'web/src/lib' },
  { type: 'web-src', pattern: 'web/src' },
  { type: 'web-e2e', pattern: 'web/e2e' },
  { type: 'web-tooling', pattern: 'web' },
  { type: 'events', pattern: 'events' },
].map((element) => ({ ...element, partialMatch: false }));

// The handler files: each function the manifest names, at functions/<area>/<name>.ts, read from the
// area slices of the manifest (shared/<area>/routes.ts) that shared/function-files.ts finds files by,
// so a function moved between areas moves here too.
const sliceFiles = readdirSync(path.join(import.meta.dirname, 'shared'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(import.meta.dirname, 'shared', entry.name, 'routes.ts')))
  .map((entry) => entry.name);
// The few functions the stack makes outside the manifest are listed by name in function-files.ts.
const unlisted = readFileSync(path.join(import.meta.dirname, 'shared/function-files.ts'), 'utf8').matchAll(/^ {2}'([a-z0-9-]+)': '([a-z0-9-]+)',$/gm);
const handlerFiles = [
  ...sliceFiles.flatMap((area) =>
    [...readFileSync(path.join(import.meta.dirname, 'shared', area, 'routes.ts'), 'utf8').matchAll(/\bname: '([a-z0-9-]+)'/g)].map(([, name]) => `functions/${area}/${name}.ts`),
  ),
  ...[...unlisted].map(([, name, area]) => `functions/${area}/${name}.ts`),
];

// web/e2e (the browser journeys) and web/scripts run in Node and drive the local stack, so they are
// test code, not part of the browser bundle.
const webSrc = ['web-feature', 'web-app', 'web-domain', 'web-components', 'web-lib', 'web-src'];
const common = ['functions-common', 'functions-common-data', 'functions-common-auth'];
const functionsCode = ['functions', 'functions-area', ...common];
const production = [...functionsCode, 'infra', 'shared', ...webSrc];
const testHelpers = ['infra-local', 'infra-testing', 'functions-testing'];
const backend = [...functionsCode, 'functions-testing', 'functions-every-route', 'infra', 'infra-local', 'infra-testing', 'infra-bench', 'infra-ops'];
const notShared = elements.map(({ type }) => type).filter((type) => type !== 'shared');

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    'cdk.out/',
    'dist/',
    'web/dist/',
    '.data/',
    '.bench/',
    '.test-data/',
    'coverage/',
    '.scratch/',
  ]),
  js.configs.recommended,
  // Not the type-checked set: building the TypeScript program for the ~800 files takes the lint from
  // ~12 s to ~60 s of CPU and ~3.4 GB on two cores, and what it found here was mostly deliberate (JSON read in tests).
  tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // A `let` that a callback reads before the code assigns it (a URL known only once a server
      // listens) cannot be a `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A leading underscore names what a signature or a destructuring must mention but the code
      // does not use (a handler's context, the field a rest copy leaves out).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests and their helpers read synthesized CloudFormation templates and HTTP bodies whose shape
    // the assertions themselves check; typing every level of them would say nothing the test does not.
    files: ['**/*.test.{ts,tsx}', 'web/e2e/**', 'infra/testing/**', 'functions/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/public/sw.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { self: 'readonly', caches: 'readonly', clients: 'readonly', fetch: 'readonly', URL: 'readonly', Request: 'readonly', Response: 'readonly', console: 'readonly' },
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': [
        { category: 'test', pattern: '**/*.test.{ts,tsx}' },
        { category: 'handler', pattern: handlerFiles },
      ],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Imports within one element are checked too: a handler file is no module for its own area either.
          checkInternals: true,
          // Policies are read in order and the last one that matches an import decides.
          policies: [
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { type: notShared } } },
              message: 'shared/ is imported by the backend and the browser alike, so it imports nothing else from the repository',
            },
            {
              from: { element: { type: webSrc } },
              disallow: { to: { element: { type: backend } } },
              message: 'web/src runs in the browser and reaches the backend only over HTTP; it may import shared/',
            },
            {
              from: { element: { type: production } },
              disallow: { to: { element: { type: testHelpers } } },
              message: 'production code does not import the local runtime or test helpers',
            },
            {
              from: { element: { type: common } },
              disallow: { to: { element: { type: ['functions-area', 'functions-every-route'] } } },
              message: 'functions/common is beneath the areas: it imports no area; move what it needs from one down into functions/common',
            },
            {
              from: { element: { type: 'functions-common-data' } },
              disallow: { to: { element: { type: 'functions-common-auth' } } },
              message: 'functions/common/data holds the data-access primitives the auth stores are built on, so it imports nothing from functions/common/auth',
            },
            {
              disallow: { to: { element: { type: 'functions-area' }, file: { categories: 'handler' } } },
              message: 'a handler file is an entry point, imported only by tests: move what others need from it into a module of its area',
            },
            {
              // Tests may use the helpers and the local runtime wherever they live, and call any
              // handler: a test of common code drives it through a real handler of some area.
              from: { file: { categories: 'test' } },
              allow: { to: [{ element: { type: [...testHelpers, 'functions-area'] } }, { file: { categories: 'handler' } }] },
            },
            {
              // The test helpers call handlers to set the scene (a submitted application, a confirmed upload).
              from: { element: { type: 'functions-testing' } },
              allow: { to: { file: { categories: 'handler' } } },
            },
            {
              // Only another feature: a feature's own files import each other now that imports within an element are checked.
              from: { element: { type: 'web-feature' } },
              disallow: { to: { element: { type: 'web-feature', captured: { feature: '!{{ from.element.captured.feature }}' } } } },
              message: 'a feature does not import another feature; what two features share lives outside web/src/features',
            },
            {
              // The layers under the features: the router composes features, never the other way round.
              from: { element: { type: ['web-domain', 'web-components', 'web-lib'] } },
              disallow: { to: { element: { type: ['web-feature', 'web-app'] } } },
              message: 'web/src/domain, components and lib are used by features and the app, and import neither',
            },
            {
              from: { element: { type: ['web-components', 'web-lib'] } },
              disallow: { to: { element: { type: 'web-domain' } } },
              message: 'web/src/components holds generic UI and lib generic code: neither knows the domain widgets',
            },
          ],
        },
      ],
    },
  },
]);
