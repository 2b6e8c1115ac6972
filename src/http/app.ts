import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { AREAS } from '../areas/index.js';
import type { AppEnv } from '../core/env.js';
import type { Deps } from '../engine/deps.js';
import { signedDownload } from '../engine/routes/archive.js';
import { docsPage, registerDocsAssets } from './docs-page.js';
import { allowedHostsOnly } from './host-check.js';
import { landingPage } from './landing-page.js';
import { productDocument } from './openapi-document.js';
import { pathAndQuery } from './path-and-query.js';
import { routeSteps, unknownPath, usePipeline } from './pipeline.js';
import { renderError } from './render-error.js';
import { validationHook } from './validation-hook.js';

/**
 * The product API (order of checks: `pipeline.ts`); one `onError` renders anything thrown as the
 * envelope. `createEmulator()` mounts the control API beside it.
 * @example const app = createApp(deps); await app.request('/v1/keys/me', { headers })
 */
export function createApp(
  deps: Deps,
  /** Runs first for every call, product and control (the recording of replay bundles). */
  first?: MiddlewareHandler<AppEnv>,
): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.onError(renderError);
  app.notFound(unknownPath);
  usePipeline(app, deps, first);

  // Built on first request, once every route is registered, and kept with this app.
  let document: unknown;
  app.get('/openapi.json', (c) => {
    document ??= productDocument(app, deps.kinds, deps.config.strictVersions);
    return c.json(document);
  });
  app.use('/docs', allowedHostsOnly(deps.config.allowedHosts));
  app.get('/docs', docsPage('svc-emulator: Robot Policy Platform API', '/openapi.json'));
  // The banner's host leads somewhere: `/` links the inspector and the docs, under the same Host check.
  app.use('/', allowedHostsOnly(deps.config.allowedHosts));
  app.get('/', landingPage(deps.config));
  registerDocsAssets(app);
  if (!deps.config.strict) app.get('/_downloads/:token', signedDownload);

  withRouteSteps(app);
  const inferred = !deps.config.strict;
  // The areas served, by their routes' tags: what GET /v1/status lists.
  const served = new Set<string>();
  const context = { kinds: deps.kinds, inferred, served };
  for (const area of AREAS) area.product?.(app, context);
  for (const def of app.openAPIRegistry.definitions)
    if (def.type === 'route') for (const tag of def.route.tags ?? []) served.add(tag);
  deps.routes.addFrom(app.openAPIRegistry.definitions);
  if (!deps.config.strict) deps.routes.add('GET', '/_downloads/{token}', 'downloadSignedArchive');
  return app;
}

/**
 * From here `app.openapi(route, handler)` gives each route the steps its data asks for
 * (`routeSteps`) as middleware before its validation; the served document leaves them out. A
 * route's query and path parameters are validated by `pathAndQuery`, after the steps where
 * zod-openapi's validators ran; its other parts (headers, the JSON body) by zod-openapi's.
 */
function withRouteSteps(app: OpenAPIHono<AppEnv>): void {
  const openapi = app.openapi;
  app.openapi = (route, handler, hook) => {
    if (!route.path.startsWith('/v1/')) throw new Error(`${route.path}: not a product route`);
    const steps = routeSteps(route);
    const { middleware: _, hide, ...documented } = route;
    const { query, params, ...rest } = route.request ?? {};
    if (hook || (!query && !params)) return openapi({ ...route, middleware: steps }, handler, hook);
    if (!hide) app.openAPIRegistry.registerPath(documented);
    const middleware = [...steps, pathAndQuery({ query, params })];
    return openapi({ ...documented, request: rest, hide: true, middleware }, handler);
  };
}
