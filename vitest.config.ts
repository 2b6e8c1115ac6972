import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { HANG_MS } from './test/wait.js';

/**
 * Tests that start other processes or outside tools (the documents' linters, codegen and tsc,
 * npm pack, the README's shell blocks, the CLI, a killed server, chromium): the "slow" project. Reading an
 * archive with `tar` does not count; those tests stay quick.
 */
const SLOW = [
  'test/contract/lint.test.ts',
  'test/contract/codegen.test.ts',
  'test/contract/result-types.test.ts',
  'test/package/**/*.test.ts',
  'test/readme.test.ts',
  'test/reliability/kill-under-load.test.ts',
  'test/control/coverage.test.ts',
  'test/control/snapshot-cli.test.ts',
  'test/heap.test.ts',
  'test/scenarios/own-scenarios-cli.test.ts',
  'test/http/cors-browser.test.ts',
  'test/http/docs-browser.test.ts',
  'test/recipes/containers.test.ts',
  'test/verify/cli.test.ts',
  'test/lab/**/*.test.ts',
  'test/grade/**/*.test.ts',
];

/**
 * The inspector's browser tests: slow too, in a project of their own so that its global setup
 * starts one chromium for all of them (test/inspector/global-setup.ts), and only when they run.
 */
const INSPECTOR = ['test/inspector/**/*.test.ts'];

export default defineConfig({
  resolve: {
    // examples/ import the package by name, as users do; here that is the source.
    alias: [
      {
        find: /^svc-emulator\/testing$/,
        replacement: fileURLToPath(new URL('./src/tools/harness/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    // One limit for every test and hook, long enough that only a hang trips it on a busy
    // machine (test/wait.ts); a test waits for what it needs, never for a fixed time.
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    // One worker per core (vitest's default leaves one core to itself, which on two cores halves
    // the suite's speed; the slow tests mostly wait on the processes they start).
    maxWorkers: '100%',
    // `vitest run` runs them all; `vitest run --project quick` is the edit loop (`npm run test:quick`).
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SLOW, ...INSPECTOR],
          // The files share a worker's module cache instead of each importing the app afresh:
          // that import was most of the set's time, and every file builds its own emulators.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
      {
        extends: true,
        test: {
          name: 'inspector',
          include: INSPECTOR,
          globalSetup: ['test/inspector/global-setup.ts'],
        },
      },
    ],
  },
});
