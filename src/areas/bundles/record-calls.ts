/**
 * Records each call while a recording runs (recorder.ts): product calls and control calls,
 * clock moves and fault rules among them, each with its request as sent (secrets labelled) and
 * the answer it got. With `--bundle-record`, a full reset or scenario load moves the mark to the
 * world it left. When nothing is recorded, a call costs one test.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { lightCacheSymbol, nodeHeaders } from '../../core/answer-headers.js';
import type { AppEnv } from '../../core/env.js';
import type { Deps } from '../../engine/deps.js';
import { bodyRead, isProductCall } from '../requests/journal-middleware.js';
import { heldAnswer } from './answer.js';
import type { CallKind } from './bundle-contract.js';
import { bodyAccount, controlAccount, createdAccount, productAccount } from './call-account.js';
import { Labeler } from './labels.js';
import type { BundleRecorder } from './recorder.js';

/** Control paths that are not calls of a test: the bundle itself, streams, pages, documents. */
const NOT_RECORDED = /^\/_control\/(bundle(\/|$)|stream\/|ui(\/|$)|openapi\.json$|docs(\/|$))/;

/** The kind of call a path is, or null if it is not recorded. */
export function callKind(path: string): CallKind | null {
  if (isProductCall(path)) return 'product';
  if (!path.startsWith('/_control/') || NOT_RECORDED.test(path)) return null;
  if (path.startsWith('/_control/faults')) return 'fault';
  return /^\/_control\/accounts\/[^/]+\/clock/.test(path) ? 'clock' : 'control';
}

/** A whole world reset: what moves the mark under `--bundle-record`. */
const resets = (method: string, path: string) =>
  method === 'POST' && (path === '/_control/reset' || path === '/_control/scenarios/load');

/**
 * @example app.use(recordCalls(deps, recorder))
 */
export function recordCalls(deps: Deps, recorder: BundleRecorder): MiddlewareHandler<AppEnv> {
  const labeler = new Labeler({
    keyOf: (secret) => deps.store.credentials(secret)?.key.id,
    controlToken: deps.config.controlToken,
  });
  // @hono/node-server's cache symbol, once an answer has shown it: the same for every answer.
  let cacheSymbol: symbol | undefined;
  return async (c, next) => {
    const path = c.req.path;
    const reset = recorder.auto && resets(c.req.method, path);
    if (!recorder.recording && !reset) return next();
    const kind = callKind(path);
    const call = kind === null ? undefined : recorder.begin(kind, c.req.method, target(c));
    if (!call) {
      await next();
      if (reset) await remark(c, deps, recorder, await bodyOf(c));
      return;
    }
    let body: string | null = null;
    try {
      await next();
      const read = bodyOf(c);
      body = read ? await read : null;
      const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
      call.headers = labeler.headers(incoming?.rawHeaders ?? [...c.req.raw.headers].flat());
      call.body = body === null ? null : labeler.body(body);
      if (kind === 'product') call.account = productAccount(c);
      else {
        call.creates_account = await createdAccount(c);
        call.account = call.creates_account ?? controlAccount(deps, new URL(c.req.url), body);
      }
    } finally {
      cacheSymbol ??= lightCacheSymbol(c.res);
      const answer = heldAnswer(
        c.res,
        path,
        c.get('dropped') === true,
        nodeHeaders(c),
        cacheSymbol,
      );
      recorder.end(call, answer instanceof Promise ? await answer : answer);
    }
    if (reset) await remark(c, deps, recorder, body);
  };
}

/** After a whole world reset that succeeded, the mark moves to the world it left. */
async function remark(
  c: Context<AppEnv>,
  deps: Deps,
  recorder: BundleRecorder,
  body: string | null,
) {
  if (c.res.status !== 200 || bodyAccount(body) !== undefined) return;
  await recorder.markNow(deps, 'reset');
}

/** The request's path and query as sent. */
function target(c: Context<AppEnv>): string {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming?.url) return incoming.url;
  const url = new URL(c.req.url);
  return url.pathname + url.search;
}

/** The request body the pipeline read (JSON bodies are read by json-depth.ts), else null. */
function bodyOf(c: Context<AppEnv>): Promise<string | null> | null {
  const text = bodyRead(c);
  if (text) return text;
  const { json }: { json?: unknown } = c.req.bodyCache;
  if (!(json instanceof Promise)) return null;
  return json.then(
    (value: unknown) => JSON.stringify(value),
    () => null,
  );
}
