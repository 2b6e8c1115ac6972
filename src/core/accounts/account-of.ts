import { notFound } from '../errors.js';
import type { Account } from '../records.js';
import type { AccountRepo } from './accounts-store.js';

/**
 * The account of that id, for a control route naming it in its path: 404 naming `account_id`.
 * @example const account = accountOf(deps, c.req.valid('param').account_id)
 */
export function accountOf(deps: { store: { accounts: AccountRepo } }, id: string): Account {
  const found = deps.store.accounts.get(id);
  if (!found) throw notFound('account', id, 'account_id');
  return found;
}
