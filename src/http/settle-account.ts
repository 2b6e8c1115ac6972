import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { settleSliced } from '../runtime/engine/sliced-settle.js';

/**
 * DESIGN.md section 2: before a handler reads or writes, the caller's account is brought to
 * "now" on its clock. The instant is fixed for the whole request (`c.get('now')`), so a realtime
 * clock cannot move between settling and reading. A long settle is applied in slices, so other
 * accounts' requests are served meanwhile; this account's wait for it.
 */
export async function settle(c: Context<AppEnv>): Promise<void> {
  const { account } = c.get('auth');
  const deps = c.get('deps');
  const now = deps.clocks.now(account);
  c.set('now', now);
  await settleSliced(deps, account, now);
}
