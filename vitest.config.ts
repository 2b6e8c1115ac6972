import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { HANG_MS } from './test/wait.js';

/**
 * The release checks: what a release needs besides behaviour (the documents' linters, codegen and
 * tsc over the generated types, npm pack and the installed package, the README's shell blocks,
 * the CI recipes in containers, the verify CLI). Each starts outside tools; `npm test` and CI run
 * them, `npm run test:quick` does not.
 */
const RELEASE = [
  'test/contract/lint.test.ts',
  'test/contract/codegen.test.ts',
  'test/contract/result-types.test.ts',
  'test/package/**/*.test.ts',
  'test/readme.test.ts',
  'test/recipes/containers.test.ts',
  'test/verify/cli.test.ts',
  'test/lab/**/*.test.ts',
  'test/grade/**/*.test.ts',
];

/**
 * Behaviour that only a process shows (the CLI's output and exit, a killed server, a fresh Node's
 * heap): the "slow" project. Reading an archive with `tar` does not count; those tests stay quick.
 */
const SLOW = [
  'test/reliability/kill-under-load.test.ts',
  'test/control/coverage.test.ts',
  'src/areas/snapshots/snapshot-cli.test.ts',
  'test/heap.test.ts',
  'test/scenarios/own-scenarios-cli.test.ts',
  'test/store/schema-version-cli.test.ts',
  'test/reliability/settle-workers-exit.test.ts',
  // Starts a settle worker per kind, each loading the source through tsx as a process would
  // (seconds of CPU apiece); test/reliability/settle-workers.test.ts keeps the pool in quick.
  'test/engine/settle-pool.test.ts',
];

/**
 * The browser tests (the inspector's, CORS, `/docs`): a project of their own so that its global
 * setup starts one chromium for all of them (test/browser-setup.ts), and only when they run.
 */
const BROWSER = ['test/inspector/**/*.test.ts', 'test/http/*-browser.test.ts'];

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
    // `npx vitest run --coverage`: line coverage of src/ (docs/development.md has the figures).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/*.test-support.ts'],
      reporter: ['text-summary', 'json-summary'],
    },
    // `vitest run` runs them all; `vitest run --project quick` is the edit loop (`npm run test:quick`).
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...RELEASE, ...SLOW, ...BROWSER],
          // The files share a worker's module cache instead of each importing the app afresh:
          // that import was most of the set's time, and every file builds its own emulators.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
      {
        extends: true,
        test: { name: 'browser', include: BROWSER, globalSetup: ['test/browser-setup.ts'] },
      },
      { extends: true, test: { name: 'release', include: RELEASE } },
    ],
  },
});
