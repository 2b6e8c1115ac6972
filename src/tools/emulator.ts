/**
 * The emulator as the package ships it (`createEmulator()` of src/index.ts, the CLI, the
 * harness): the product with the tools beside it plugged into its control API, the inspector's
 * page and listings and the coverage report.
 */
import { createProductEmulator, type EmulatorOptions, type ProductEmulator } from '../emulator.js';
import { errorCatalog } from '../engine/kind-registry.js';
import { registerCoverage } from './coverage/control-coverage.js';
import type { CoverageDocument } from './coverage/outcomes.js';
import { type CoverageReport, coverageReport } from './coverage/report.js';
import { registerInspector } from './inspector/inspector.js';
import { registerListings } from './inspector/listings.js';

export interface Emulator extends ProductEmulator {
  /** The coverage report (`GET /_control/coverage`): every call, or one account's. */
  coverage(account?: string): CoverageReport;
}

/**
 * Builds a complete emulator: store, clocks, ids, the loaded scenario, the app and its tools. No
 * module state: two emulators in one process share nothing.
 * @example const { app } = createEmulator({ seed: '0' }); await app.request('/_control/health')
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  // Set when the product emulator plugs the tools in, before it returns.
  let coverage!: Emulator['coverage'];
  const emulator = createProductEmulator(options, ({ deps, productDocument }) => {
    coverage = (account) =>
      coverageReport(
        productDocument() as CoverageDocument,
        errorCatalog(deps.kinds),
        deps.coverage,
        account ?? null,
      );
    return [
      { name: 'listings', register: (app) => registerListings(app, deps, productDocument) },
      { name: 'coverage', register: (app) => registerCoverage(app, deps, coverage) },
      { name: 'inspector', register: (app) => registerInspector(app) },
    ];
  });
  return { ...emulator, coverage };
}
