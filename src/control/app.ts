import { timingSafeEqual } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { baseUrl } from '../api/base-url.js';
import type { AppEnv } from '../api/env.js';
import type { ScenarioFile } from '../contract/scenario-file.js';
import { deriveState } from '../domain/run-state.js';
import { toRunBody } from '../domain/run-view.js';
import { toWebhookEndpoint } from '../domain/webhook-endpoint-view.js';
import { apiError, type ErrorCode, MESSAGES, notFound } from '../errors.js';
import { docsPage } from '../http/docs-page.js';
import { validationHook } from '../http/validation-hook.js';
import { evaluationKind, RUN_KINDS } from '../kinds/index.js';
import {
  CLOCK_LIMIT_MESSAGE,
  type ClockMode,
  MAX_VIRTUAL_MS,
  parseClockMode,
  toTimestamp,
  wallNow,
} from '../runtime/clock.js';
import type { CoverageDocument } from '../runtime/coverage/outcomes.js';
import type { Deps } from '../runtime/deps.js';
import { settleAccount } from '../runtime/engine/settle.js';
import { settleSliced } from '../runtime/engine/sliced-settle.js';
import { accountView, createAccount, createKey, FULL_SCOPES, keyView } from '../world/accounts.js';
import { DataFileError, listScenarios, loadScenarioFile } from '../world/load-scenario.js';
import { resetWorld } from '../world/reset.js';
import { seedEvaluation, seedTwin, seedUserAsset, seedWebhookEndpoint } from '../world/seed.js';
import { seedRun } from '../world/seed-run.js';
import { controlDocument } from './control-document.js';
import { registerCoverage } from './coverage.js';
import { registerDiagnostics } from './diagnostics.js';
import * as routes from './routes.js';
import { registerWebhookDeliveries } from './webhook-deliveries.js';

/** Documentation, not state: open without the token, so `/_control/docs` loads and its Authorize takes it. */
const OPEN_DOCS: readonly string[] = ['/_control/docs', '/_control/openapi.json'];

/** `--control-token`: the control API then needs `X-Control-Token` (DESIGN.md section 5). */
function controlToken(token: string | null) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const docs =
      (c.req.method === 'GET' || c.req.method === 'HEAD') && OPEN_DOCS.includes(c.req.path);
    if (token !== null && !docs) {
      const given = Buffer.from(c.req.header('x-control-token') ?? '');
      const expected = Buffer.from(token);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw apiError('control_unauthorized');
      }
    }
    await next();
  });
}

/**
 * Refuses a browser request from another web page (inferred): without it, any page the developer
 * has open could reset the world or revoke keys. The emulator's own origin (the Host header, so
 * `/_control/docs` "Try it out" works) and `--control-allow-origin` pass; requests without
 * `Origin` (curl, SDKs, server-side fetch) pass unless `Sec-Fetch-Site` says cross-site.
 */
function sameOrigin(allowed: readonly string[]) {
  const any = allowed.includes('*');
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('origin')?.trim().toLowerCase();
    const host = c.req.header('host')?.toLowerCase();
    if (origin === undefined || origin === '') {
      if (c.req.header('sec-fetch-site')?.toLowerCase() === 'cross-site' && !any) {
        throw apiError('cross_origin_forbidden');
      }
    } else if (
      !any &&
      !allowed.includes(origin) &&
      !(host !== undefined && (origin === `http://${host}` || origin === `https://${host}`))
    ) {
      throw apiError('cross_origin_forbidden');
    }
    await next();
  });
}

function scenarioByName(deps: Deps, name: string): ScenarioFile {
  try {
    return loadScenarioFile(deps.scenarios.dir, name);
  } catch (err) {
    if (!(err instanceof DataFileError)) throw err;
    const missing = /cannot read/.test(err.message);
    const code: ErrorCode = missing ? 'resource_not_found' : 'parameter_invalid';
    throw apiError(code, { param: missing ? 'scenario' : err.field, message: err.message });
  }
}

/**
 * The control API (`/_control`): never needs an API key; its own OpenAPI document. Handlers
 * delegate to `src/world/`, which the scenario loader uses too. `productDocument` answers the
 * served `/openapi.json`, which the coverage report lists the operations of.
 */
export function createControlApp(
  deps: Deps,
  productDocument: () => CoverageDocument,
): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use('*', sameOrigin(deps.config.controlAllowOrigins));
  app.use('*', controlToken(deps.config.controlToken));
  const account = (id: string) => {
    const found = deps.store.accounts.get(id);
    if (!found) throw notFound('account', id, 'account_id');
    return found;
  };

  app.openapi(routes.healthRoute, (c) =>
    c.json(
      {
        status: 'ok' as const,
        version: deps.config.version,
        uptime_s: Math.round((wallNow() - deps.startedAt) / 1000),
      },
      200,
    ),
  );

  app.openapi(routes.resetRoute, (c) => {
    const body = c.req.valid('json');
    const scenario = body.scenario ? scenarioByName(deps, body.scenario) : undefined;
    if (body.account) account(body.account);
    resetWorld(deps, { scenario, account: body.account });
    return c.json({ scenario: deps.scenarios.loaded.name, account: body.account ?? null }, 200);
  });

  app.openapi(routes.listScenariosRoute, (c) => {
    const data = listScenarios(deps.scenarios.dir).map((name) => {
      const file = scenarioByName(deps, name);
      return { name, description: file.description ?? null };
    });
    return c.json({ object: 'list' as const, loaded: deps.scenarios.loaded.name, data }, 200);
  });

  app.openapi(routes.loadScenarioRoute, (c) => {
    const body = c.req.valid('json');
    const scenario = 'name' in body ? scenarioByName(deps, body.name) : body.scenario;
    resetWorld(deps, { scenario });
    return c.json({ scenario: scenario.name }, 200);
  });

  app.openapi(routes.createAccountRoute, (c) => {
    const input = c.req.valid('json');
    const created = deps.store.tx(() => {
      const acct = createAccount(deps, input);
      return { acct, key: createKey(deps, acct, { name: 'default', scopes: FULL_SCOPES }) };
    });
    return c.json({ account: accountView(deps, created.acct), key: keyView(created.key) }, 201);
  });

  app.openapi(routes.getAccountRoute, (c) =>
    c.json(accountView(deps, account(c.req.valid('param').account_id)), 200),
  );

  app.openapi(routes.createKeyRoute, (c) => {
    const acct = account(c.req.valid('param').account_id);
    const key = deps.store.tx(() => createKey(deps, acct, c.req.valid('json')));
    return c.json(keyView(key), 201);
  });

  app.openapi(routes.revokeKeyRoute, (c) => {
    const { key_id } = c.req.valid('param');
    const key = deps.store.keys.get(key_id);
    if (!key) throw notFound('key', key_id, 'key_id');
    const owner = account(key.accountId);
    deps.store.keys.revoke(key_id, toTimestamp(deps.clocks.now(owner)));
    return c.json(keyView(deps.store.keys.get(key_id)!), 200);
  });

  const clockView = (id: string) => {
    const clock = deps.clocks.forAccount(account(id));
    return { account_id: id, now: toTimestamp(clock.now()), mode: clock.mode };
  };

  app.openapi(routes.getClockRoute, (c) => c.json(clockView(c.req.valid('param').account_id), 200));

  app.openapi(routes.setClockRoute, (c) => {
    const acct = account(c.req.valid('param').account_id);
    const body = c.req.valid('json');
    const now = body.now === undefined ? undefined : Date.parse(body.now);
    if (now !== undefined && now < deps.clocks.now(acct)) {
      throw apiError('parameter_invalid', {
        param: 'now',
        message: MESSAGES.clockBackwards,
      });
    }
    const mode = body.mode ? (parseClockMode(body.mode) as ClockMode) : undefined;
    deps.clocks.update(acct, { mode, now });
    return c.json(clockView(acct.id), 200);
  });

  app.openapi(routes.advanceClockRoute, async (c) => {
    const acct = account(c.req.valid('param').account_id);
    const body = c.req.valid('json');
    const from = deps.clocks.now(acct);
    const to =
      body.to === undefined ? from + Math.round(body.seconds! * 1000) : Date.parse(body.to);
    if (to > MAX_VIRTUAL_MS) {
      throw apiError('parameter_invalid', { param: 'seconds', message: CLOCK_LIMIT_MESSAGE });
    }
    if (to < from) {
      throw apiError('parameter_invalid', {
        param: 'to',
        message: MESSAGES.clockBackwards,
      });
    }
    deps.clocks.update(acct, { now: to });
    // In slices: other accounts' requests are served while a long advance is applied.
    const transitions = (await settleSliced(deps, acct, to)) ?? [];
    return c.json({ ...clockView(acct.id), transitions }, 200);
  });

  app.openapi(routes.seedEvaluationRoute, (c) => {
    const acct = account(c.req.valid('param').account_id);
    const now = deps.clocks.now(acct);
    settleAccount(deps, acct, now);
    const record = deps.store.tx(() => seedEvaluation(deps, acct, c.req.valid('json')));
    return c.json(
      toRunBody(
        evaluationKind,
        { ...record, state: deriveState(record.state, now) },
        baseUrl(c),
      ) as never,
      201,
    );
  });

  app.openapi(routes.seedRunRoute, (c) => {
    const acct = account(c.req.valid('param').account_id);
    const now = deps.clocks.now(acct);
    settleAccount(deps, acct, now);
    const record = deps.store.tx(() => seedRun(deps, acct, c.req.valid('json')));
    const kind = RUN_KINDS[record.kind]!;
    const state = deriveState(record.state, now, kind.stepNoun);
    return c.json(toRunBody(kind, { ...record, state }, baseUrl(c)), 201);
  });

  app.openapi(routes.seedTwinRoute, (c) => {
    const acct = account(c.req.valid('param').account_id);
    const twin = deps.store.tx(() => seedTwin(deps, acct, c.req.valid('json')));
    return c.json(
      {
        id: twin.id,
        object: 'twin' as const,
        status: twin.status,
        file_count: twin.fileCount,
        created_at: twin.createdAt,
      },
      201,
    );
  });

  app.openapi(routes.seedWebhookEndpointRoute, (c) => {
    const acct = account(c.req.valid('param').account_id);
    const e = deps.store.tx(() => seedWebhookEndpoint(deps, acct, c.req.valid('json')));
    return c.json({ ...toWebhookEndpoint(e), secret: e.secret }, 201);
  });

  for (const [r, kind] of [
    [routes.seedEnvironmentRoute, 'environment'],
    [routes.seedObjectRoute, 'object'],
  ] as const) {
    app.openapi(r, (c) => {
      const acct = account(c.req.valid('param').account_id);
      const a = deps.store.tx(() => seedUserAsset(deps, acct, kind, c.req.valid('json')));
      return c.json(
        { id: a.id, object: kind, name: a.name, status: a.status, created_at: a.createdAt },
        201,
      );
    });
  }

  app.get('/openapi.json', (c) => c.json(controlDocument(app, deps.config.version)));
  registerDiagnostics(app, deps);
  registerWebhookDeliveries(app, deps);
  registerCoverage(app, deps, productDocument);
  app.get('/docs', docsPage('svc-emulator control API', '/_control/openapi.json'));
  return app;
}
