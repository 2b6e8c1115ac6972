import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { settleAccount } from '../runtime/settle.js';

/**
 * DESIGN.md section 2: before a handler reads or writes, the caller's account is brought to
 * "now" on its clock. The instant is fixed for the whole request (`c.get('now')`), so a realtime
 * clock cannot move between settling and reading.
 */
export function settle(c: Context<AppEnv>): void {
  const { account } = c.get('auth');
  const now = c.get('deps').clocks.now(account);
  settleAccount(c.get('deps'), account, now);
  c.set('now', now);
}
