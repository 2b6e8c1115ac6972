import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { settleSliced } from '../runtime/engine/sliced-settle.js';

/**
 * DESIGN.md section 2: the caller's account is brought to "now" before a handler reads or writes,
 * an instant fixed for the whole request (`c.get('now')`); a long settle goes in slices.
 */
export async function settle(c: Context<AppEnv>): Promise<void> {
  const { account } = c.get('auth');
  const deps = c.get('deps');
  const now = deps.clocks.now(account);
  c.set('now', now);
  await settleSliced(deps, account, now);
}
