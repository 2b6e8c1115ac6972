import { type ClockMode, DEFAULT_CLOCK_START, toTimestamp } from '../../core/clock.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import { makeSecret } from '../../core/ids.js';
import type { Account, ApiKeyRecord } from '../../core/records.js';
import { digestSecret } from '../../core/sha256.js';
import type { Deps } from '../../engine/deps.js';
import type { AccountInput, KeyInput } from './inputs.js';

export const DEFAULT_TOKEN_BALANCE = 1_000_000;

/** Creates an account (its clock starts at `clock.start`, the scenario's, or 2026-01-01). */
export function createAccount(
  deps: Deps,
  input: AccountInput,
  defaults: { clockStart?: number; clockMode?: ClockMode } = {},
): Account {
  const { store, ids, config } = deps;
  const start = input.clock?.start
    ? Date.parse(input.clock.start)
    : (defaults.clockStart ?? DEFAULT_CLOCK_START);
  const id = input.id ?? ids.next('acct', 'world', start);
  if (store.accounts.get(id)) {
    throw invalidParam('id', MESSAGES.alreadyExists(`Account '${id}'`));
  }
  const account: Account = {
    id,
    name: input.name ?? id,
    features: input.features ?? [],
    tokenBalance: input.token_balance ?? DEFAULT_TOKEN_BALANCE,
    limits: input.limits ?? {},
    downloadMode: input.download_mode ?? 'auth',
    clockMode: input.clock?.mode ?? defaults.clockMode ?? config.clockMode,
    clockNow: start,
    clockWall: null,
    createdAt: toTimestamp(start),
  };
  store.accounts.insert(account);
  return account;
}

/** Creates a key; the secret is given or drawn from the seed. Only its digest is stored. */
export function createKey(
  deps: Deps,
  account: Account,
  input: KeyInput,
): ApiKeyRecord & { secret: string } {
  const { store, ids, clocks, config } = deps;
  const now = clocks.now(account);
  const id = input.id ?? ids.next('key', account.id, now);
  if (store.keys.get(id)) {
    throw invalidParam('id', MESSAGES.alreadyExists(`Key '${id}'`));
  }
  const secret =
    input.secret ??
    makeSecret(config.seed, account.id, store.sequences.next(`${account.id}/secret`));
  const secretSha256 = digestSecret(secret);
  if (store.keys.findByDigest(secretSha256)) {
    throw invalidParam('secret', MESSAGES.secretInUse);
  }
  const key = {
    id,
    accountId: account.id,
    name: input.name,
    scopes: input.scopes,
    createdAt: toTimestamp(now),
    expiresAt: input.expires_at ? toTimestamp(Date.parse(input.expires_at)) : null,
    revokedAt: null,
  };
  store.keys.insert({ ...key, secretSha256 });
  return { ...key, secret };
}

/** The control API's view of an account. */
export function accountView(deps: Deps, account: Account) {
  const clock = deps.clocks.forAccount(account);
  return {
    id: account.id,
    object: 'account' as const,
    name: account.name,
    features: account.features,
    token_balance: account.tokenBalance,
    limits: account.limits,
    download_mode: account.downloadMode,
    clock: { now: toTimestamp(clock.now()), mode: clock.mode },
    created_at: account.createdAt,
  };
}

/** The control API's view of a key, with the secret when it was just created. */
export function keyView(key: ApiKeyRecord & { secret?: string }) {
  return {
    id: key.id,
    object: 'api_key' as const,
    account_id: key.accountId,
    name: key.name,
    scopes: key.scopes,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
    ...(key.secret ? { secret: key.secret } : {}),
  };
}
