import type { OpenAPIHono } from '@hono/zod-openapi';
import { signedDownload } from '../api/archive.js';
import { registerAssets } from '../api/assets.js';
import { registerAugmentationEpisodes } from '../api/augmentations.js';
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
import { apiError, MESSAGES } from '../errors.js';
import { REGISTERED_KINDS } from '../kinds/index.js';
import type { Deps } from '../runtime/deps.js';
import { limitBody } from './body-limit.js';
import { docsPage, registerDocsAssets } from './docs-page.js';
import { productDocument } from './openapi-document.js';
import { productPipeline, type RouteGuards, routeGuards } from './pipeline.js';
import { renderError } from './render-error.js';
import { requestContext } from './request-context.js';
import { validatedApp } from './validated-app.js';
import { validationHook } from './validation-hook.js';

/**
 * The whole HTTP surface of the product API; the order of checks is `pipeline.ts`. Anything
 * thrown on the way is rendered by one `onError` as the standard envelope. The control API is
 * mounted beside it by `createEmulator()`.
 * @example const app = createApp(deps); await app.request('/v1/keys/me', { headers })
 */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const app = validatedApp<AppEnv>(validationHook);
  app.onError(renderError);
  app.notFound((c) =>
    renderError(
      apiError('resource_not_found', {
        message: MESSAGES.unrecognized(c.req.method, c.req.path),
      }),
      c,
    ),
  );

  app.use('*', requestContext(deps));
  app.use('*', limitBody());

  // Built on first request, once every route is registered, and kept with this app.
  let document: unknown;
  app.get('/openapi.json', (c) => {
    document ??= productDocument(app, { strictVersions: deps.config.strictVersions });
    return c.json(document);
  });
  app.get('/docs', docsPage('svc-emulator: Robot Policy Platform API', '/openapi.json'));
  registerDocsAssets(app);
  if (!deps.config.strict) app.get('/_downloads/:token', signedDownload);

  const inferred = !deps.config.strict;
  // Filled once every route is registered; the layer reads it per request.
  const guards: RouteGuards = new Map();
  app.use('/v1/*', productPipeline(guards));
  // The areas served, by their routes' tags: what GET /v1/status lists.
  const served = new Set<string>();
  if (inferred) registerStatus(app, served);
  // Every run kind on the one engine; under --strict only each kind's documented routes.
  for (const { kind, routes } of REGISTERED_KINDS)
    registerRunKind(app, kind, routes, inferred ? 'all' : 'documented');
  if (inferred) registerAugmentationEpisodes(app);
  registerKeys(app);
  registerScenarios(app, inferred);
  if (inferred) registerAssets(app);
  registerWebhooks(app, inferred);
  registerRequests(app, inferred);
  if (inferred) registerUsage(app);
  registerEvents(app, inferred);
  if (inferred) registerCatalog(app);
  if (inferred) registerOperations(app);
  const definitions = app.openAPIRegistry.definitions as never;
  for (const def of app.openAPIRegistry.definitions)
    if (def.type === 'route') for (const tag of def.route.tags ?? []) served.add(tag);
  deps.routes.addFrom(definitions);
  for (const [key, guard] of routeGuards(definitions)) guards.set(key, guard);
  if (!deps.config.strict) deps.routes.add('GET', '/_downloads/{token}', 'downloadSignedArchive');
  return app;
}
