import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { settleSliced } from '../runtime/engine/sliced-settle.js';

/** DESIGN.md section 2: the account is brought to the request's fixed now before its handler. */
export function settle(c: Context<AppEnv>): Promise<unknown> | undefined {
  const { account } = c.get('auth');
  const deps = c.get('deps');
  const now = deps.clocks.now(account);
  c.set('now', now);
  return settleSliced(deps, account, now);
}
