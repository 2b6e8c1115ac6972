import { createHash } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { headerOf, nodeHeaders, sentHeaders, wholeSeconds } from '../../core/answer-headers.js';
import { wallNow } from '../../core/clock.js';
import type { AppEnv } from '../../core/env.js';
import { joinedHeader } from '../../core/request-header.js';
import { routeMatchOf } from '../../core/route-match.js';
import { cutText, type JournalDetail } from './journal-details.js';

/** Paths longer than this are kept truncated, so the journal's size is bounded (inferred). */
export const JOURNAL_PATH_MAX = 2048;

/** A path cut after `JOURNAL_PATH_MAX` characters, followed by a marker naming what was cut. */
export function journalPath(path: string): string {
  if (path.length <= JOURNAL_PATH_MAX) return path;
  const marker = `...[truncated ${path.length - JOURNAL_PATH_MAX} chars]`;
  return path.slice(0, JOURNAL_PATH_MAX) + marker;
}

/**
 * The calls of the product API: `/v1` and below, and signed downloads. The emulator's own pages
 * (`/`, `/docs` and its files, `/openapi.json`), the control API and any other path (a browser's
 * `/favicon.ico`) are not, and are neither journaled nor counted (docs/inferred.md).
 */
export function isProductCall(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path.startsWith('/_downloads/');
}

/**
 * Records every product call in the journal once its answer is decided, faulted and dropped ones
 * included (DESIGN.md section 5): reading the journal must not change it.
 * @example app.use(journal)
 */
export const journal: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isProductCall(c.req.path)) return next();
  const startedWall = wallNow();
  await next();
  // Only a body the pipeline already read: reading one here would wait for a body the answer
  // did not need.
  const read = bodyRead(c);
  const text = read ? await read : null;
  const body = text === null ? null : cutText(text);
  recordRequest(c, startedWall, detailOf(c, body), text === null ? null : bodyDigest(text));
};

/**
 * The text of the body the pipeline read (a JSON body, once: json-depth.ts), which Hono keeps as
 * a promise; null when it read none.
 */
export function bodyRead(c: Context<AppEnv>): Promise<string | null> | null {
  const read: unknown = c.req.bodyCache.text;
  if (!(read instanceof Promise)) return null;
  return read.then(
    (text: unknown) => (typeof text === 'string' ? text : null),
    () => null,
  );
}

/** The first 16 hex digits of the body's sha256: enough to tell a resend unchanged (issue 38). */
function bodyDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The whole seconds of the answer's `Retry-After` (RFC 9110 section 10.2.3), if it has one: as
 * `envelopeAnswer` (core/envelope.ts) answered it, else read as the answer holds it (asking
 * `res.headers` would make the adapter build a `Headers`).
 */
function retryAfterOf(c: Context<AppEnv>): number | null {
  const rendered = c.get('retryAfter');
  if (rendered !== undefined) return rendered;
  return wholeSeconds(headerOf(sentHeaders(c.res, []), 'retry-after'));
}

/**
 * What the detail pane shows (runtime/journal-details.ts), as references to what the call already
 * made: nothing is copied or read until someone asks. An archive's answer is not kept (it can be
 * large), nor a dropped call's (there is none).
 */
function detailOf(c: Context<AppEnv>, body: string | null): JournalDetail {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const path = c.req.path;
  const archive = path.endsWith('/archive') || path.startsWith('/_downloads/');
  const keep = !archive && c.get('dropped') !== true;
  return {
    requestHeaders: incoming?.rawHeaders ?? [...c.req.raw.headers].flat(),
    url: incoming?.url ?? c.req.url,
    requestBody: body,
    error: c.get('errorBody') ?? null,
    // Served by Node the answer's body stays readable once sent; under app.request() the caller
    // reads it, so the journal keeps a copy.
    response: keep ? (incoming ? c.res : c.res.clone()) : null,
    nodeHeaders: keep ? nodeHeaders(c) : [],
  };
}

function recordRequest(
  c: Context<AppEnv>,
  startedWall: number,
  detail: JournalDetail,
  digest: string | null,
): void {
  const deps = c.get('deps');
  const wall = wallNow();
  const match = routeMatchOf(c);
  const auth = c.get('auth');
  const caller = c.get('caller');
  const accountId = auth?.account.id ?? caller?.accountId ?? null;
  let atMs = c.get('now');
  if (atMs === undefined) {
    // A call answered before authentication (a fault): the caller's account, if any.
    const account = auth?.account ?? caller?.account;
    atMs = account ? deps.clocks.now(account) : deps.systemClock.now();
  }
  const dropped = c.get('dropped') === true;
  const status = dropped ? null : c.res.status;
  const code = dropped ? null : (c.get('errorCode') ?? null);
  const strike = c.get('strike');
  const worked = strike?.workStatus ?? status;
  // Counted whatever the journal keeps (--journal-size 0 too): the coverage report needs them all.
  deps.coverage.record({ operation: match?.operation ?? null, status, code, account: accountId });
  deps.journal.record(
    {
      request_id: c.get('requestId'),
      method: c.req.method,
      path: journalPath(c.req.path),
      route: match?.route ?? null,
      operation: match?.operation ?? null,
      status,
      code,
      account_id: accountId,
      key_id: auth?.key.id ?? caller?.keyId ?? null,
      fault_id: c.get('faultId') ?? null,
      idempotent_replayed: c.get('replayed') === true,
      at_ms: atMs,
      wall_ms: wall,
      duration_ms: wall - startedWall,
      idempotency_key: joinedHeader(c, 'idempotency-key') ?? null,
      body_digest: digest,
      retry_after: status !== null && status >= 400 ? retryAfterOf(c) : null,
      fault_after: strike?.after === true,
      work_status: strike?.workStatus ?? null,
      hang_ms: strike?.hangMs ?? null,
      client_closed: c.get('clientClosed') === true,
      // Set before the create's own checks can still refuse it: kept only when the work succeeded.
      resource_id: worked !== null && worked < 300 ? (c.get('resourceId') ?? null) : null,
    },
    detail,
  );
}
