import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts', 'web/src/**/*.test.ts'],
          globalSetup: ['infra/testing/dynalite-global-setup.ts'],
          setupFiles: ['infra/testing/function-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['web/e2e/**/*.test.ts'],
          globalSetup: ['web/e2e/global-setup.ts'],
          // One browser at a time: the machine has two cores and the journeys start whole stacks.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    reporters: ['default', './infra/testing/summary-reporter.ts'],
  },
});
