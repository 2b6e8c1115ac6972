import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../api/env.js';
import { wallNow } from '../runtime/clock.js';
import { routeMatchOf } from './route-match.js';

/** Paths longer than this are kept truncated, so the journal's size is bounded (inferred). */
export const JOURNAL_PATH_MAX = 2048;

/** A path cut after `JOURNAL_PATH_MAX` characters, followed by a marker naming what was cut. */
export function journalPath(path: string): string {
  if (path.length <= JOURNAL_PATH_MAX) return path;
  const marker = `...[truncated ${path.length - JOURNAL_PATH_MAX} chars]`;
  return path.slice(0, JOURNAL_PATH_MAX) + marker;
}

/**
 * Records every request but the control API's in the journal once its answer is decided,
 * faulted and dropped ones included (DESIGN.md section 5): reading the journal must not change it.
 * @example app.use(journal)
 */
export const journal: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.path.startsWith('/_control')) return next();
  const startedWall = wallNow();
  await next();
  recordRequest(c, startedWall);
};

function recordRequest(c: Context<AppEnv>, startedWall: number): void {
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
  // Counted whatever the journal keeps (--journal-size 0 too): the coverage report needs them all.
  deps.coverage.record({ operation: match?.operation ?? null, status, code, account: accountId });
  deps.journal.record({
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
  });
}
