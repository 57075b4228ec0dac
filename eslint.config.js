import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Which part of the repository a file belongs to. The first pattern that matches wins, so the
// narrower folders come before the folder that holds them.
const elements = [
  { type: 'functions-testing', pattern: 'functions/testing' },
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

// web/e2e (the browser journeys) and web/scripts run in Node and drive the local stack, so they are
// test code, not part of the browser bundle.
const webSrc = ['web-feature', 'web-app', 'web-domain', 'web-components', 'web-lib', 'web-src'];
const production = ['functions', 'infra', 'shared', ...webSrc];
const testHelpers = ['infra-local', 'infra-testing', 'functions-testing'];
const backend = ['functions', 'functions-testing', 'infra', 'infra-local', 'infra-testing', 'infra-bench', 'infra-ops'];
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
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
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
              // Tests may use the helpers and the local runtime wherever they live.
              from: { file: { categories: 'test' } },
              allow: { to: { element: { type: testHelpers } } },
            },
            {
              from: { element: { type: 'web-feature' } },
              disallow: { to: { element: { type: 'web-feature' } } },
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
