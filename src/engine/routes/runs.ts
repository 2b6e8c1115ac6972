/**
 * The routes of every run kind, written once (DESIGN.md section 7, "The run engine"): each
 * handler parses, calls one engine command or read, and shapes the answer with the kind's body.
 * A kind brings its routes and its definition (`src/kinds/<kind>/`); nothing here names a kind.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { baseUrl } from '../../core/base-url.js';
import { checkCursor } from '../../core/cursor.js';
import type { AppEnv } from '../../core/env.js';
import { envelopeAnswer } from '../../core/envelope.js';
import { ApiError, MESSAGES, notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import type { RunRouteName } from '../contract/run-routes.js';
import type { RunRecord } from '../records.js';
import { type Caller, cancelRun, createRunCommand, resumeRun } from '../run-commands.js';
import type { RegisteredKind, RunKind } from '../run-kind.js';
import { runFilePage, runLog } from '../run-outputs.js';
import { deriveState } from '../timeline/state.js';
import { toRunBody } from '../timeline/view.js';
import { worldOf } from '../world-view.js';
import { serveArchive } from './archive.js';

type Ctx = Context<AppEnv>;

/** The run's body as of the request's now. */
function runView(c: Ctx, kind: RunKind, record: RunRecord) {
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

/** The run id the route's path names: its `idParam`, as the route validated it. */
function runIdOf(
  c: Context<AppEnv, string, { out: { param: Record<string, string> } }>,
  idParam: string,
) {
  return c.req.valid('param')[idParam] ?? '';
}

/**
 * `then` of the caller's run of this kind that the path names, or the 404 naming the kind's own
 * path parameter (`noun` says what a logs or files route calls it), answered at once
 * (core/envelope.ts): an SDK's error tests ask for one unknown id thousands of times.
 * @example return withRun(c, registered, runId, (run) => c.json(runView(c, kind, run), 200))
 */
function withRun<R>(
  c: Ctx,
  { kind, routes }: RegisteredKind,
  runId: string,
  then: (run: RunRecord) => R,
  noun = kind.name,
): R | Response {
  const found = c.get('deps').store.runs.get(c.get('auth').account.id, runId);
  // A run of another kind is not one of this kind's: the same 404 as an unknown id.
  if (!found || found.kind !== kind.name)
    return envelopeAnswer(c, notFound(noun, runId, routes.idParam));
  return then(found);
}

/** `GET .../files`: a page of a succeeded run's files; any other answers the kind's 409. */
async function files(
  c: Ctx,
  registered: RegisteredKind,
  found: RunRecord,
  { after, limit }: { after?: string; limit: number },
): Promise<Response> {
  const { kind, routes } = registered;
  if (found.state.status !== 'succeeded') {
    const own = registered.errors?.[routes.notReadyCode];
    throw ApiError.of(routes.notReadyCode, {
      ...(own && { status: own.status }),
      message: MESSAGES.filesNotReady(own ? kind.name : 'run', found.state.status),
    });
  }
  const page = await runFilePage(c.get('deps'), found, after ?? '', limit);
  const body = listPage(page.data, page.hasMore, routes.objects.file, (f) => f.path);
  return c.json(body, 200);
}

/** `GET /v1/<collection>`: a page of the caller's runs of the kind, newest first. */
function list(
  c: Ctx,
  kind: RunKind,
  { status, after, limit }: { status?: string; after?: string; limit: number },
): Response {
  const { store } = c.get('deps');
  const accountId = c.get('auth').account.id;
  const noun = `a ${kind.name.replace('_', ' ')}`;
  checkCursor(after, (id) => store.runs.owns(accountId, kind.name, id), noun);
  const page = store.runs.list(accountId, kind.name, { status, after, limit });
  const data = page.data.map((r) => runView(c, kind, r));
  const body = listPage(data, page.hasMore, kind.name, (e) => e.id);
  return c.json(body, 200);
}

/**
 * Registers a kind's routes, each handler typed by its route's inputs; `documented` (`--strict`)
 * only those the kind lists as documented (API document sections 4.1, 4.4 to 4.6), and not its
 * own reads, which are inferred.
 * @example registerRunKind(app, registered, 'all')
 */
export function registerRunKind(
  app: OpenAPIHono<AppEnv>,
  registered: RegisteredKind,
  set: 'all' | 'documented',
): void {
  const { kind, routes } = registered;
  const { idParam } = routes;
  const served = (name: RunRouteName) => set === 'all' || routes.documented.includes(name);
  /** `then` of the run the path names, or its 404 (`withRun`). */
  const find = <R>(
    c: Parameters<typeof runIdOf>[0],
    then: (run: RunRecord) => R,
    noun = kind.name,
  ) => withRun(c, registered, runIdOf(c, idParam), then, noun);
  // In this order: the served documents list the routes as they are registered.
  if (served('resume'))
    // 202 with the run back in `queued`.
    app.openapi(routes.resume, (c) =>
      find(c, (run) => c.json(runView(c, kind, resumeRun(caller(c), kind, run)), 202)),
    );
  if (served('logs'))
    app.openapi(routes.logs, (c) =>
      find(
        c,
        async (found) => {
          const { limit } = c.req.valid('query');
          const lines = await runLog(c.get('deps'), found, limit, c.get('now'));
          return c.json({ id: found.id, object: routes.objects.logs, lines }, 200);
        },
        routes.subresourceNoun,
      ),
    );
  if (served('files'))
    app.openapi(routes.files, (c) =>
      find(c, (run) => files(c, registered, run, c.req.valid('query')), routes.subresourceNoun),
    );
  if (routes.create && served('create'))
    app.openapi(routes.create, (c) => {
      const deps = c.get('deps');
      const { account } = c.get('auth');
      const request = kind.prepare(c.req.valid('json'), worldOf(deps, account));
      const id = deps.ids.next(kind.prefix, account.id, c.get('now'));
      c.set('resourceId', id);
      return c.json(runView(c, kind, createRunCommand(caller(c), kind, { id, request })), 201);
    });
  if (routes.get && served('get'))
    app.openapi(routes.get, (c) => find(c, (run) => c.json(runView(c, kind, run), 200)));
  if (routes.list && served('list'))
    app.openapi(routes.list, (c) => list(c, kind, c.req.valid('query')));
  if (routes.cancel && served('cancel'))
    // 202 with the run `canceling`.
    app.openapi(routes.cancel, (c) =>
      find(c, (run) => c.json(runView(c, kind, cancelRun(caller(c), run)), 202)),
    );
  if (routes.archive && served('archive'))
    app.openapi(routes.archive, (c) => find(c, (run) => serveArchive(c, run, idParam)));
  if (set === 'documented') return;
  for (const { route, read } of registered.reads ?? [])
    app.openapi(route, (c) =>
      find(c, (run) => {
        const state = deriveState(run.state, c.get('now'), kind.stepNoun);
        return c.json(read(run, state, c.get('deps').catalog), 200);
      }),
    );
}
