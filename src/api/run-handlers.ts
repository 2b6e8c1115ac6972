/**
 * The handlers of every run kind's routes, written once (api/runs.ts registers them): each
 * parses, calls one engine command or read, and shapes the answer with the kind's body.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import type { RunRoutes } from '../contract/run-routes.js';
import { listPage } from '../domain/paging.js';
import type { RunRecord } from '../domain/records.js';
import type { RegisteredKind, RunKind, RunRead } from '../domain/run-kind.js';
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

/** A handler of one of a kind's routes. */
export type RunHandler = (c: Ctx) => Response;

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

/** One kind as its handlers see it: its definition, its routes, and how to find its runs. */
export interface KindRoutes {
  registered: RegisteredKind;
  kind: RunKind;
  routes: RunRoutes;
  /** The caller's run of this kind, or the 404 naming the kind. */
  find(c: Ctx): RunRecord;
  /** The same, with the 404 naming the run as the logs and files routes do. */
  findSub(c: Ctx): RunRecord;
}

/** The parts every handler of one kind shares. */
export function kindRoutes(registered: RegisteredKind): KindRoutes {
  const { kind, routes } = registered;
  /**
   * The caller's run of this kind, or the 404 naming the kind's own path parameter (`noun` says
   * what a logs or files route calls it). Commands take it as read: the handler is synchronous.
   */
  const lookup = (c: Ctx, noun: string): RunRecord => {
    const runId = valid(c, 'param')[routes.idParam] as string;
    const found = c.get('deps').store.runs.get(c.get('auth').account.id, runId);
    // A run of another kind is not one of this kind's: the same 404 as an unknown id.
    if (!found || found.kind !== kind.name) throw notFound(noun, runId, routes.idParam);
    return found;
  };
  return {
    registered,
    kind,
    routes,
    find: (c) => lookup(c, kind.name),
    findSub: (c) => lookup(c, routes.subresourceNoun),
  };
}

/** `POST .../resume`: 202 with the run back in `queued`. */
export function resumeHandler({ kind, find }: KindRoutes): RunHandler {
  return (c) => {
    const run = find(c);
    return c.json(runView(c, kind, resumeRun(caller(c), kind, run)), 202);
  };
}

/** `GET .../logs`: the tail of the run's log. */
export function logsHandler({ routes, findSub }: KindRoutes): RunHandler {
  return (c) => {
    const found = findSub(c);
    const lines = runLog(c.get('deps'), found, valid(c, 'query').limit, c.get('now'));
    return c.json({ id: found.id, object: routes.objects.logs, lines }, 200);
  };
}

/** `GET .../files`: a page of a succeeded run's files; any other answers the kind's 409. */
export function filesHandler({ registered, kind, routes, findSub }: KindRoutes): RunHandler {
  return (c) => {
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
  };
}

/** `POST /v1/<collection>`: 201 with the new run, `queued`. */
export function createHandler({ kind }: KindRoutes): RunHandler {
  return (c) => {
    const deps = c.get('deps');
    const { account } = c.get('auth');
    const request = kind.prepare(valid(c, 'json'), worldOf(deps, account));
    const id = deps.ids.next(kind.prefix, account.id, c.get('now'));
    const record = createRunCommand(caller(c), kind, { id, request });
    return c.json(runView(c, kind, record), 201);
  };
}

/** `GET .../{id}`: the run as of now. */
export function getHandler({ kind, find }: KindRoutes): RunHandler {
  return (c) => c.json(runView(c, kind, find(c)), 200);
}

/** `GET /v1/<collection>`: a page of the caller's runs of the kind, newest first. */
export function listHandler({ kind }: KindRoutes): RunHandler {
  return (c) => {
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
  };
}

/** `POST .../cancel`: 202 with the run `canceling`. */
export function cancelHandler({ kind, find }: KindRoutes): RunHandler {
  return (c) => c.json(runView(c, kind, cancelRun(caller(c), find(c))), 202);
}

/** `GET .../archive`: the archive of a succeeded run (api/archive.ts). */
export function archiveHandler({ routes, find }: KindRoutes): RunHandler {
  return (c) => serveArchive(c, find(c), routes.idParam);
}

/** A kind's own read of a run (`RunRead`): what `read` derives from the run as of now. */
export function readHandler({ kind, find }: KindRoutes, read: RunRead['read']): RunHandler {
  return (c) => {
    const run = find(c);
    const state = deriveState(run.state, c.get('now'), kind.stepNoun);
    return c.json(read(run, state, c.get('deps').catalog) as never, 200);
  };
}
