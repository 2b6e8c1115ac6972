import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { docsPage } from '../http/docs-page.js';
import { allowedHostsOnly } from '../http/host-check.js';
import { checkJsonDepth } from '../http/json-depth.js';
import { validationHook } from '../http/validation-hook.js';
import type { CoverageReport } from '../runtime/coverage/report.js';
import type { Deps } from '../runtime/deps.js';
import { registerAccounts } from './accounts.js';
import { registerClock } from './clock.js';
import { controlDocument } from './control-document.js';
import { registerCoverage } from './coverage.js';
import { registerDiagnostics } from './diagnostics.js';
import { controlToken, sameOrigin } from './guards.js';
import { registerInspector } from './inspector.js';
import { registerJournal } from './journal.js';
import { registerJournalStream } from './journal-stream.js';
import { registerListings } from './listings.js';
import { registerRuns } from './runs.js';
import { registerScenarios } from './scenarios.js';
import { registerSeeding } from './seeding.js';
import { registerSnapshots } from './snapshots.js';
import { registerWebhookDeliveries } from './webhook-deliveries.js';
import { registerWebhookEvents } from './webhook-events.js';
import { registerWorld } from './world.js';

/**
 * The control API (`/_control`, DESIGN.md section 5): no API key, its own OpenAPI document, a file
 * per area; `coverage` reports on the product API, which the control API does not import.
 * @example app.route('/_control', createControlApp(deps, emulator.coverage, productDocument))
 */
export function createControlApp(
  deps: Deps,
  coverage: (account?: string) => CoverageReport,
  /** The served `/openapi.json` (the example create bodies of `GET /_control/kinds`). */
  productDocument: () => unknown,
): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use('*', allowedHostsOnly(deps.config.allowedHosts));
  app.use('*', sameOrigin(deps.config.controlAllowOrigins));
  app.use('*', controlToken(deps.config.controlToken));
  // Nearly every control operation takes a body; none is called often enough to tell them apart.
  app.use('*', checkJsonDepth);
  registerWorld(app, deps);
  registerSnapshots(app, deps);
  registerScenarios(app, deps);
  registerAccounts(app, deps);
  registerListings(app, deps, productDocument);
  registerClock(app, deps);
  registerSeeding(app, deps);
  registerRuns(app, deps);
  registerDiagnostics(app, deps);
  registerJournal(app, deps);
  registerJournalStream(app, deps);
  registerWebhookDeliveries(app, deps);
  registerWebhookEvents(app, deps);
  registerCoverage(app, deps, coverage);
  app.get('/openapi.json', (c) => c.json(controlDocument(app, deps.config.version)));
  app.get('/docs', docsPage('svc-emulator control API', '/_control/openapi.json'));
  registerInspector(app);
  return app;
}
