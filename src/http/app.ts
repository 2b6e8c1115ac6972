import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
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
import { type ApiError, apiError, MESSAGES } from '../errors.js';
import { REGISTERED_KINDS } from '../kinds/index.js';
import type { Deps } from '../runtime/deps.js';
import type { RouteMatch, RouteTable } from '../runtime/route-table.js';
import { type Answer, answering } from './answer.js';
import { docsPage, registerDocsAssets } from './docs-page.js';
import { productDocument } from './openapi-document.js';
import { type GuardedRoute, productPipeline, routeGuard } from './pipeline.js';
import { renderError } from './render-error.js';
import { requestContext, type Serve } from './request-context.js';
import { type RouteWrap, validatedApp } from './validated-app.js';
import { invalidAnswer } from './validation-hook.js';

/**
 * The whole HTTP surface of the product API; the order of checks is `pipeline.ts`. Every path is
 * served through the request context exactly once: each route (product, documents, downloads)
 * as one Hono handler that runs it, the control API through a `/_control/*` layer, and any other
 * path by the not-found handler. One Hono handler per route lets Hono skip its compose, and a
 * request that needs no waiting is answered without a promise (issue 12). Anything thrown on the
 * way is rendered as the standard envelope. The control API is mounted beside it by
 * `createEmulator()`.
 * @example const app = createApp(deps); await app.request('/v1/keys/me', { headers })
 */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const serve = requestContext(deps);
  const app = validatedApp<AppEnv>(invalidAnswer, productRoute(serve, deps.routes));
  app.onError(renderError);
  app.notFound((c) => {
    // A `/_control` path is already in its context (the layer below); any other starts here.
    if (c.get('requestId') !== undefined) return unrecognized(c);
    const path = c.req.path;
    // Every `/v1` path is authenticated first: without a key 401, with one 404 (docs/api.md).
    if (path === '/v1' || path.startsWith('/v1/'))
      return serve(c, () => productPipeline(c, undefined, () => unrecognized(c)));
    return serve(c, () => unrecognized(c));
  });
  app.use('/_control/*', async (c, next) =>
    serve(c, async () => {
      await next();
      return c.res;
    }),
  );

  const plain = (handler: (c: Context<AppEnv>) => Answer) => (c: Context<AppEnv>) =>
    serve(c, () => handler(c));
  // Built on first request, once every route is registered, and kept with this app.
  let document: unknown;
  app.get(
    '/openapi.json',
    plain((c) => {
      document ??= productDocument(app, { strictVersions: deps.config.strictVersions });
      return c.json(document);
    }),
  );
  const docs = docsPage('svc-emulator: Robot Policy Platform API', '/openapi.json') as unknown as (
    c: Context<AppEnv>,
    next: () => Promise<void>,
  ) => Promise<Response>;
  app.get(
    '/docs',
    plain((c) => docs(c, async () => {})),
  );
  registerDocsAssets(app, plain);
  if (!deps.config.strict) app.get('/_downloads/:token', plain(signedDownload));

  const inferred = !deps.config.strict;
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
  if (!deps.config.strict) deps.routes.add('GET', '/_downloads/{token}', 'downloadSignedArchive');
  return app;
}

/**
 * A product route: the request context, the pipeline with the route's guards, its validation,
 * then its handler. What the handler throws (`apiError(...)`: a 409 state, a 402) is caught
 * right around it, and an `ApiError` it returns (a run lookup's 404) answered the same way: a
 * function that an exception leaves, instead of returning, never spends V8's tier-up budget,
 * so every function a throw passes through stays in the interpreter for as long as only throws
 * leave it (a resume of an unknown id over and over: issue 12).
 */
function productRoute(serve: Serve, routes: RouteTable): RouteWrap {
  return (route, validate, handler) => {
    if (!route.path.startsWith('/v1/')) throw new Error(`${route.path}: not a product route`);
    const guard = routeGuard(route as GuardedRoute);
    const handled = (c: Context<AppEnv>, next: Next) =>
      answering(c, () => handler(c, next) as Answer | ApiError);
    const method = route.method.toUpperCase();
    const honoPath = route.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    // The route's template and operation (http/route-match.ts), looked up on its first request,
    // once the table is filled, instead of from Hono's match on every one.
    let match: RouteMatch | null | undefined;
    return (c, next) => {
      if (match === undefined) match = routes.ofHonoRoute(method, honoPath) ?? null;
      c.set('routeMatch', match);
      return serve(c as Context<AppEnv>, () =>
        productPipeline(c as Context<AppEnv>, guard, () => {
          const checked = validate?.(c);
          if (checked instanceof Promise)
            return checked.then((failed) => failed ?? handled(c as Context<AppEnv>, next));
          return checked ?? handled(c as Context<AppEnv>, next);
        }),
      );
    };
  };
}

/** 404 for a path or method no route serves. */
function unrecognized(c: Context<AppEnv>): Response {
  const message = MESSAGES.unrecognized(c.req.method, c.req.path);
  return renderError(apiError('resource_not_found', { message }), c);
}
