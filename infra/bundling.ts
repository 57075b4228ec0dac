/**
 * How every function is bundled: the CDK stack (NodejsFunction) and the benchmark (esbuild) both
 * read this, so what the benchmark measures is what ships.
 */
export const lambdaBundling = {
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourcesContent: false,
  /** ESM output has no `require`; some CommonJS dependencies still call it for Node built-ins. */
  banner:
    "import { createRequire as __marketplaceCreateRequire } from 'node:module'; const require = __marketplaceCreateRequire(import.meta.url);",
} as const;
