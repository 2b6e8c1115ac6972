import { OpenAPIHono } from '@hono/zod-openapi';
import type { ControlContext, ControlPart } from '../areas/area.js';
import { AREAS } from '../areas/index.js';
import type { AppEnv } from '../core/env.js';
import { registerScenarios } from '../world/control-scenarios.js';
import { registerWorld } from '../world/control-world.js';
import { controlDocument } from './control-document.js';
import { controlToken, sameOrigin } from './control-guards.js';
import { docsPage } from './docs-page.js';
import { allowedHostsOnly } from './host-check.js';
import { checkJsonDepth } from './json-depth.js';
import { validationHook } from './validation-hook.js';

/** The world's own control routes: health, reset, and the scenario files. */
const WORLD: readonly ControlPart[] = [
  { name: 'world', register: (app, { deps }) => registerWorld(app, deps) },
  { name: 'scenario files', register: (app, { deps }) => registerScenarios(app, deps) },
];

/**
 * The order the control parts are registered in, and so the order `/_control/openapi.json` lists
 * their paths (the world's, the areas' and those plugged in from above: the inspector's listings,
 * the coverage report). A part named nowhere here comes after these, in the order given.
 */
const CONTROL_ORDER = [
  'world',
  'snapshots',
  'scenario files',
  'accounts',
  'listings',
  'clock',
  'seeding',
  'webhook seeding',
  'asset seeding',
  'runs',
  'faults',
  'sweeps',
  'journal',
  'journal stream',
  'client report',
  'webhook deliveries',
  'webhook events',
  'webhook chaos',
  'coverage',
  'bundles',
];

/** The parts in `CONTROL_ORDER`, the others after them as given. */
function inControlOrder(parts: readonly ControlPart[]): ControlPart[] {
  const place = (part: ControlPart) => {
    const at = CONTROL_ORDER.indexOf(part.name);
    return at < 0 ? CONTROL_ORDER.length : at;
  };
  return [...parts].sort((a, b) => place(a) - place(b));
}

/**
 * The control API (`/_control`, DESIGN.md section 5): no API key, its own OpenAPI document, the
 * world's routes and every area's (src/areas/index.ts); `plugged`: the parts the layer above adds
 * (tools/with-tools.ts: the inspector and the coverage report).
 * @example app.route('/_control', createControlApp({ deps, bundles }, plugged))
 */
export function createControlApp(
  context: ControlContext,
  plugged: readonly ControlPart[] = [],
): OpenAPIHono<AppEnv> {
  const { deps } = context;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use('*', allowedHostsOnly(deps.config.allowedHosts));
  app.use('*', sameOrigin(deps.config.controlAllowOrigins));
  app.use('*', controlToken(deps.config.controlToken));
  // Nearly every control operation takes a body; none is called often enough to tell them apart.
  app.use('*', checkJsonDepth);
  const parts = [...WORLD, ...AREAS.flatMap((area) => area.control ?? []), ...plugged];
  for (const part of inControlOrder(parts)) part.register(app, context);
  app.get('/openapi.json', (c) => c.json(controlDocument(app, deps.config.version)));
  app.get('/docs', docsPage('svc-emulator control API', '/_control/openapi.json'));
  return app;
}
