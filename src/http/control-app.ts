import { OpenAPIHono } from '@hono/zod-openapi';
import { registerAccounts } from '../areas/accounts/control.js';
import { registerClock } from '../areas/accounts/control-clock.js';
import { registerWebhookEvents } from '../areas/events/control.js';
import { registerDiagnostics } from '../areas/faults/control-faults.js';
import { registerJournal } from '../areas/requests/control-journal.js';
import { registerJournalStream } from '../areas/requests/control-journal-stream.js';
import { registerAssetSeeding } from '../areas/scenarios/control-seeding.js';
import { registerSnapshots } from '../areas/snapshots/control-snapshots.js';
import { registerWebhookDeliveries } from '../areas/webhooks/control-deliveries.js';
import { registerWebhookSeeding } from '../areas/webhooks/control-seeding.js';
import type { AppEnv } from '../core/env.js';
import type { Deps } from '../engine/deps.js';
import { registerRuns } from '../engine/routes/control-runs.js';
import { registerSeeding } from '../engine/routes/control-seeding.js';
import { registerCoverage } from '../tools/coverage/control-coverage.js';
import type { CoverageReport } from '../tools/coverage/report.js';
import { registerInspector } from '../tools/inspector/inspector.js';
import { registerListings } from '../tools/inspector/listings.js';
import { registerScenarios } from '../world/control-scenarios.js';
import { registerWorld } from '../world/control-world.js';
import { controlDocument } from './control-document.js';
import { controlToken, sameOrigin } from './control-guards.js';
import { docsPage } from './docs-page.js';
import { allowedHostsOnly } from './host-check.js';
import { checkJsonDepth } from './json-depth.js';
import { validationHook } from './validation-hook.js';

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
  registerWebhookSeeding(app, deps);
  registerAssetSeeding(app, deps);
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
