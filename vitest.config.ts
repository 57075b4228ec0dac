import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three files at a time, unit and browser alike, on any machine. Vitest's default is one fewer than
 * the cores, which on a 2-core machine is one file at a time; and a project held to one file at a
 * time makes the whole run wait for it. Most of a run is waiting (dynalite, local stacks, a journey's
 * timers and polling: a browser journey uses a few seconds of CPU a minute), so files overlap well.
 */
const FILES_AT_ONCE = 3;

/**
 * What a busy machine would make wrong rather than slow: a burst of bookings that must all be
 * answered while the stack is SIGKILLed and started again. These run by themselves at the end.
 */
const alone = ['infra/local/crash-recovery.test.ts'];

export default defineConfig({
  test: {
    maxWorkers: FILES_AT_ONCE,
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...alone],
          globalSetup: ['infra/testing/dynalite-global-setup.ts'],
          setupFiles: ['infra/testing/function-env.ts', 'infra/testing/table-grant-check.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'alone',
          environment: 'node',
          include: alone,
          // After everything else, one file at a time (a group of its own: vitest runs groups in order).
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
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
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // Every handler logs a JSON line per request, so a passing run printed hundreds of them and a
    // failure was lost among them. Each test's console output is kept and shown only if it fails.
    silent: 'passed-only',
    reporters: ['default', './infra/testing/summary-reporter.ts'],
  },
});
