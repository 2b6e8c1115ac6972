import { OpenAPIHono } from '@hono/zod-openapi';
import { signedDownload } from '../api/archive.js';
import { registerAssets } from '../api/assets.js';
import { registerCatalog } from '../api/catalog.js';
import type { AppEnv } from '../api/env.js';
import { registerEvents } from '../api/events.js';
import { registerKeys } from '../api/keys.js';
import { registerOperations } from '../api/operations.js';
import { registerRequests } from '../api/requests.js';
import { registerRunKind } from '../api/runs.js';
import { registerScenarios } from '../api/scenarios.js';
import { registerStatus } from '../api/status.js';
import { registerUsage } from '../api/usage.js';
import { registerWebhooks } from '../api/webhooks.js';
import type { Deps } from '../runtime/deps.js';
import { docsPage, registerDocsAssets } from './docs-page.js';
import { productDocument } from './openapi-document.js';
import { type GuardedRoute, routeSteps, unknownPath, usePipeline } from './pipeline.js';
import { renderError } from './render-error.js';
import { validationHook } from './validation-hook.js';

/**
 * The whole HTTP surface of the product API; the order of checks is `pipeline.ts`. Anything
 * thrown on the way is rendered by one `onError` as the standard envelope. The control API is
 * mounted beside it by `createEmulator()`.
 * @example const app = createApp(deps); await app.request('/v1/keys/me', { headers })
 */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.onError(renderError);
  app.notFound(unknownPath);
  usePipeline(app, deps);

  // Built on first request, once every route is registered, and kept with this app.
  let document: unknown;
  app.get('/openapi.json', (c) => {
    document ??= productDocument(app, deps.kinds, { strictVersions: deps.config.strictVersions });
    return c.json(document);
  });
  app.get('/docs', docsPage('svc-emulator: Robot Policy Platform API', '/openapi.json'));
  registerDocsAssets(app);
  if (!deps.config.strict) app.get('/_downloads/:token', signedDownload);

  withRouteSteps(app);
  const inferred = !deps.config.strict;
  // The areas served, by their routes' tags: what GET /v1/status lists.
  const served = new Set<string>();
  if (inferred) registerStatus(app, deps.kinds, served);
  // Every run kind on the one engine; under --strict only each kind's documented routes.
  for (const registered of deps.kinds.list)
    registerRunKind(app, registered, inferred ? 'all' : 'documented');
  registerKeys(app);
  registerScenarios(app, inferred);
  if (inferred) registerAssets(app);
  registerWebhooks(app, inferred);
  registerRequests(app, inferred);
  if (inferred) registerUsage(app, deps.kinds);
  registerEvents(app, deps.kinds, inferred);
  if (inferred) registerCatalog(app);
  if (inferred) registerOperations(app, deps.kinds);
  const definitions = app.openAPIRegistry.definitions as never;
  for (const def of app.openAPIRegistry.definitions)
    if (def.type === 'route') for (const tag of def.route.tags ?? []) served.add(tag);
  deps.routes.addFrom(definitions);
  if (!deps.config.strict) deps.routes.add('GET', '/_downloads/{token}', 'downloadSignedArchive');
  return app;
}

/**
 * From here on `app.openapi(route, handler)` gives each product route the steps its route data
 * asks for (`routeSteps`) as the route's middleware, which runs before its validation. The
 * served document is unchanged: `openapi()` leaves a route's middleware out of it.
 */
function withRouteSteps(app: OpenAPIHono<AppEnv>): void {
  const openapi = app.openapi;
  app.openapi = ((route: GuardedRoute & { path: string }, handler: never, hook: never) => {
    if (!route.path.startsWith('/v1/')) throw new Error(`${route.path}: not a product route`);
    return openapi({ ...route, middleware: routeSteps(route) } as never, handler, hook);
  }) as typeof app.openapi;
}
