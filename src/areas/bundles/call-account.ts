/**
 * Which account a recorded call concerns, so that `GET /_control/bundle?account=ID` takes that
 * account's calls: a product call's caller; a control call's account by its path, its query or
 * body `account`, or the account that owns the key, run, delivery or endpoint it names; the
 * account `POST /_control/accounts` made. Null for the whole emulator's calls (fault rules,
 * resets, listings).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../core/env.js';
import { jsonMember } from '../../core/json-member.js';
import type { Deps } from '../../engine/deps.js';

/** The control routes that name something of one account by its id, and how to find the owner. */
const OWNED: readonly [RegExp, (deps: Deps, id: string) => string | undefined][] = [
  [/^\/_control\/accounts\/([^/]+)/, (_deps, id) => id],
  [/^\/_control\/keys\/([^/]+)/, (deps, id) => deps.store.keys.get(id)?.accountId],
  [/^\/_control\/runs\/([^/]+)/, (deps, id) => deps.store.runs.ownerOf(id)],
  [/^\/_control\/webhook_deliveries\/([^/]+)/, (deps, id) => deps.webhooks.get(id)?.accountId],
  [
    /^\/_control\/webhook_endpoints\/([^/]+)/,
    (deps, id) => deps.store.webhookEndpoints.find(id)?.accountId,
  ],
];

/** The account a product call was made for: its key's, or the one a fault read from its key. */
export function productAccount(c: Context<AppEnv>): string | null {
  return c.get('auth')?.account.id ?? c.get('caller')?.accountId ?? null;
}

/**
 * The account a control call concerns, once it was answered; `body` is its JSON body's text.
 * @example controlAccount(deps, '/_control/accounts/acct_1/clock', null)
 */
export function controlAccount(deps: Deps, url: URL, body: string | null): string | null {
  const path = url.pathname;
  for (const [pattern, owner] of OWNED) {
    const id = pattern.exec(path)?.[1];
    if (id !== undefined) return owner(deps, decodeURIComponent(id)) ?? null;
  }
  const asked = url.searchParams.get('account');
  if (asked) return asked;
  const named = bodyAccount(body);
  return typeof named === 'string' ? named : null;
}

/** The account `POST /_control/accounts` made, read from its answer. */
export async function createdAccount(c: Context<AppEnv>): Promise<string | null> {
  if (c.req.method !== 'POST' || c.req.path !== '/_control/accounts' || c.res.status !== 201)
    return null;
  // Control answers are not journaled, so reading a clone takes nothing from anyone.
  const answer = (await c.res.clone().json()) as { account?: { id?: unknown } };
  return typeof answer.account?.id === 'string' ? answer.account.id : null;
}

/**
 * A JSON body's `account` member, if the body is an object that has one: read from the text
 * without parsing the rest (a refused 1 MiB scenario load took `JSON.parse` 50 to 200 ms).
 */
export function bodyAccount(body: string | null): unknown {
  return body === null ? undefined : jsonMember(body, 'account');
}
