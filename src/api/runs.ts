/**
 * The routes of every run kind, written once (DESIGN.md section 7, "The run engine"): each
 * handler parses, calls one engine command or read, and shapes the answer with the kind's body.
 * A kind brings its routes and its definition (`src/kinds/<kind>/`); nothing here names a kind.
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import type { RunRouteName } from '../contract/run-routes.js';
import { listPage } from '../domain/paging.js';
import type { RunRecord } from '../domain/records.js';
import type { RegisteredKind, RunKind } from '../domain/run-kind.js';
import { deriveState } from '../domain/run-state.js';
import { toRunBody } from '../domain/run-view.js';
import { ApiError, MESSAGES, notFound } from '../errors.js';
import {
  type Caller,
  cancelRun,
  createRunCommand,
  resumeRun,
} from '../runtime/engine/run-commands.js';
import { runFilePage, runLog } from '../runtime/engine/run-outputs.js';
import { worldOf } from '../runtime/engine/world-view.js';
import { serveArchive } from './archive.js';
import { baseUrl } from './base-url.js';
import { checkCursor } from './cursor.js';

type Ctx = Context<AppEnv>;

/** The run's body as of the request's now. */
export function runView(c: Ctx, kind: RunKind, record: RunRecord) {
  const state = deriveState(record.state, c.get('now'), kind.stepNoun);
  return toRunBody(kind, { ...record, state }, baseUrl(c));
}

/** The request as the run engine's caller. */
function caller(c: Ctx): Caller {
  return {
    deps: c.get('deps'),
    account: c.get('auth').account,
    now: c.get('now'),
    version: c.get('version'),
  };
}

/** What the routes' schemas validated; each kind's routes are typed by the kind's schemas. */
// biome-ignore lint/suspicious/noExplicitAny: one handler serves every kind's differently typed routes
type Valid = Record<string, any>;

/** Handlers read their input through this: the generic routes are typed per kind. */
function valid(c: Ctx, target: 'json' | 'param' | 'query'): Valid {
  return (c.req.valid as (t: string) => Valid)(target);
}

/** Which of a kind's routes to serve: every one, or only the documented ones (`--strict`). */
export type RunRouteSet = 'all' | 'documented';

/**
 * Registers the routes of a kind. `documented` serves only the routes the kind lists as
 * documented (API document sections 4.1, 4.4 to 4.6); a kind with none serves nothing under
 * `--strict`. A kind's own reads (`reads`) are inferred routes.
 * @example registerRunKind(app, registered, 'all')
 */
export function registerRunKind(
  app: OpenAPIHono<AppEnv>,
  registered: RegisteredKind,
  set: RunRouteSet,
): void {
  const { kind, routes } = registered;
  const served = (name: RunRouteName) => set === 'all' || routes.documented.includes(name);
  const on = (
    name: RunRouteName,
    route: RouteConfig | undefined,
    handler: (c: Ctx) => Response,
  ) => {
    if (route && served(name)) app.openapi(route, handler as never);
  };
  const idOf = (c: Ctx) => valid(c, 'param')[routes.idParam] as string;
  /**
   * The caller's run of this kind, or the 404 naming the kind's own path parameter (`noun` says
   * what a logs or files route calls it). Commands take it as read: the handler is synchronous.
   */
  const lookup = (c: Ctx, noun: string): RunRecord => {
    const runId = idOf(c);
    const found = c.get('deps').store.runs.get(c.get('auth').account.id, runId);
    // A run of another kind is not one of this kind's: the same 404 as an unknown id.
    if (!found || found.kind !== kind.name) throw notFound(noun, runId, routes.idParam);
    return found;
  };
  const find = (c: Ctx) => lookup(c, kind.name);
  const findSub = (c: Ctx) => lookup(c, routes.subresourceNoun);

  on('resume', routes.resume, (c) => {
    const run = find(c);
    return c.json(runView(c, kind, resumeRun(caller(c), kind, run)), 202);
  });

  on('logs', routes.logs, (c) => {
    const found = findSub(c);
    const lines = runLog(c.get('deps'), found, valid(c, 'query').limit);
    return c.json({ id: found.id, object: routes.objects.logs, lines }, 200);
  });

  on('files', routes.files, (c) => {
    const { after, limit } = valid(c, 'query');
    const found = findSub(c);
    if (found.state.status !== 'succeeded') {
      const own = registered.errors?.[routes.notReadyCode];
      throw ApiError.of(routes.notReadyCode, {
        ...(own && { status: own.status }),
        message: MESSAGES.filesNotReady(own ? kind.name : 'run', found.state.status),
      });
    }
    const page = runFilePage(c.get('deps'), found, after ?? '', limit);
    return c.json(
      listPage(page.data, page.hasMore, routes.objects.file, (f) => f.path),
      200,
    );
  });

  on('create', routes.create, (c) => {
    const deps = c.get('deps');
    const { account } = c.get('auth');
    const request = kind.prepare(valid(c, 'json'), worldOf(deps, account));
    const id = deps.ids.next(kind.prefix, account.id, c.get('now'));
    const record = createRunCommand(caller(c), kind, { id, request });
    return c.json(runView(c, kind, record), 201);
  });

  on('get', routes.get, (c) => {
    return c.json(runView(c, kind, find(c)), 200);
  });

  on('list', routes.list, (c) => {
    const { status, after, limit } = valid(c, 'query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    checkCursor(
      after,
      (id) => store.runs.owns(accountId, kind.name, id),
      `a ${kind.name.replace('_', ' ')}`,
    );
    const page = store.runs.list(accountId, kind.name, { status, after, limit });
    return c.json(
      listPage(
        page.data.map((r) => runView(c, kind, r)),
        page.hasMore,
        kind.name,
        (e) => e.id,
      ),
      200,
    );
  });

  on('cancel', routes.cancel, (c) => {
    return c.json(runView(c, kind, cancelRun(caller(c), find(c))), 202);
  });

  on('archive', routes.archive, (c) => {
    return serveArchive(c, find(c), routes.idParam);
  });

  if (set === 'all')
    for (const { route, read } of registered.reads ?? [])
      app.openapi(route, (c: Ctx) => {
        const run = find(c);
        const state = deriveState(run.state, c.get('now'), kind.stepNoun);
        return c.json(read(run, state, c.get('deps').catalog) as never, 200);
      });
}
