import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { wallNow } from '../runtime/clock.js';
import type { Deps } from '../runtime/deps.js';

/**
 * Records a product request in the journal once its response is decided (DESIGN.md section 5).
 * Called by the request context for every request but the control API's: reading the journal
 * must not change it.
 */
export function recordRequest(
  c: Context<AppEnv>,
  deps: Deps,
  path: string,
  startedWall: number,
): void {
  const wall = wallNow();
  const match = deps.routes.resolve(c.req.method, path);
  const auth = c.get('auth');
  const caller = c.get('caller');
  const accountId = auth?.account.id ?? caller?.accountId ?? null;
  let atMs = c.get('now');
  if (atMs === undefined) {
    const account = auth?.account ?? (accountId ? deps.store.accounts.get(accountId) : undefined);
    atMs = account ? deps.clocks.now(account) : deps.systemClock.now();
  }
  const dropped = c.get('dropped') === true;
  deps.journal.record({
    request_id: c.get('requestId'),
    method: c.req.method,
    path,
    route: match?.route ?? null,
    operation: match?.operation ?? null,
    status: dropped ? null : c.res.status,
    code: dropped ? null : (c.get('errorCode') ?? null),
    account_id: accountId,
    key_id: auth?.key.id ?? caller?.keyId ?? null,
    fault_id: c.get('faultId') ?? null,
    idempotent_replayed: c.get('replayed') === true,
    at_ms: atMs,
    wall_ms: wall,
    duration_ms: wall - startedWall,
  });
}
