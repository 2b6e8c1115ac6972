import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { registerArchive, signedDownload } from '../api/archive.js';
import { registerEvaluations } from '../api/evaluations.js';
import { registerEvents } from '../api/events.js';
import { registerKeys } from '../api/keys.js';
import { registerRequests } from '../api/requests.js';
import { registerScenarios } from '../api/scenarios.js';
import { registerSimRuns } from '../api/sim-runs.js';
import { registerStatus } from '../api/status.js';
import { registerTwins } from '../api/twins.js';
import { registerUsage } from '../api/usage.js';
import { registerWebhooks } from '../api/webhooks.js';
import { createControlApp } from '../control/app.js';
import { apiError } from '../errors.js';
import { authenticate } from './authenticate.js';
import { checkVersion } from './check-version.js';
import { docsPage, registerDocsAssets } from './docs-page.js';
import type { AppEnv, Deps } from './env.js';
import { productDocument } from './openapi-document.js';
import { renderError } from './render-error.js';
import { requestContext } from './request-context.js';
import { settle } from './settle-account.js';
import { validationHook } from './validation-hook.js';

const ONE_MIB = 1024 * 1024;

/**
 * The whole HTTP surface. The request pipeline, in the order of DESIGN.md section 2:
 *
 *   request context (request id, served version, response headers; it journals every
 *      non-control request, and runs `X-Emulator-Fault` then the fault rules first on /v1
 *      and /_downloads)
 *   -> body limit (413 `request_too_large`)
 *   [GET /v1/status answers here: no key; its guard checks the version]
 *   -> authentication (401)            [/v1 only]
 *   -> version (400 `unsupported_version`)
 *   -> settle the account's runs up to its clock's now
 *   -> per-route guard: strict version list, scope, feature (403), rate limit (429),
 *      Idempotency-Key on POST (replay, or 409 after validation)
 *   -> zod validation (400 `parameter_invalid`, one `defaultHook`)
 *   -> handler
 *
 * Anything thrown on the way is rendered by one `onError` as the standard envelope.
 * @example const app = createApp(deps); await app.request('/v1/keys/me', { headers })
 */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.onError(renderError);
  app.notFound((c) =>
    renderError(
      apiError('resource_not_found', {
        message: `Unrecognized request: ${c.req.method} ${c.req.path}.`,
      }),
      c,
    ),
  );

  app.use('*', requestContext(deps));
  const limitBody = bodyLimit({
    maxSize: ONE_MIB,
    onError: () => {
      throw apiError('request_too_large');
    },
  });
  // GET and HEAD carry no body; reading `c.req.raw.body` would make the node adapter build a
  // full Request on every call (about a third of a GET's cost, measured by the bench).
  app.use('*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next),
  );

  app.get('/openapi.json', (c) => c.json(productDocument(app)));
  app.get('/docs', docsPage('svc-emulator: Robot Policy Platform API', '/openapi.json'));
  registerDocsAssets(app);
  if (deps.config.control) app.route('/_control', createControlApp(deps));
  if (!deps.config.strict) app.get('/_downloads/:token', signedDownload);

  const inferred = !deps.config.strict;
  // The status area needs no key (API document section 5.1): its route comes before the
  // authentication layer and ends the chain there.
  if (inferred) registerStatus(app);
  // One layer for the three steps every /v1 call takes (each Hono layer costs a dispatch).
  app.use('/v1/*', async (c, next) => {
    authenticate(c);
    checkVersion(c);
    await settle(c);
    await next();
  });
  registerEvaluations(app, inferred);
  if (inferred) registerArchive(app);
  registerKeys(app);
  registerScenarios(app);
  registerSimRuns(app);
  registerTwins(app, inferred);
  registerWebhooks(app, inferred);
  registerRequests(app, inferred);
  if (inferred) registerUsage(app);
  registerEvents(app, inferred);
  deps.routes.addFrom(app);
  if (!deps.config.strict) deps.routes.add('GET', '/_downloads/{token}', 'downloadSignedArchive');
  return app;
}
