/** The control API's accounts and keys (DESIGN.md section 5). */

import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { LimitsSchema } from '../../core/accounts/limits.js';
import { toTimestamp } from '../../core/clock.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { fullScopes, scopesOf } from '../../engine/kind-registry.js';
import { AccountInput, type KeyInput, keyInput } from './inputs.js';
import { accountView, createAccount, createKey, keyView } from './make-account.js';

const KeyParam = z.object({
  key_id: z.string().openapi({ param: { name: 'key_id', in: 'path' } }),
});

export const AccountView = z
  .object({
    id: z.string(),
    object: z.literal('account'),
    name: z.string(),
    features: z.array(z.string()),
    token_balance: z.number().int(),
    limits: LimitsSchema,
    download_mode: z.enum(['auth', 'signed']),
    clock: z.object({ now: Timestamp, mode: z.string() }),
    created_at: Timestamp,
  })
  .openapi('ControlAccount', {
    example: {
      id: 'acct_00000000000000000000000001',
      object: 'account',
      name: 'Default',
      features: ['twins'],
      token_balance: 1000000,
      limits: {},
      download_mode: 'auth',
      clock: { now: '2026-01-01T00:00:00.000Z', mode: 'manual' },
      created_at: '2026-01-01T00:00:00.000Z',
    },
  });
export const KeyView = z
  .object({
    id: z.string(),
    object: z.literal('api_key'),
    account_id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    secret: z.string().optional().openapi({ description: 'Shown once, at creation.' }),
  })
  .openapi('ControlKey');

export const createAccountRoute = route({
  method: 'post',
  path: '/accounts',
  operationId: 'createAccount',
  summary: 'A new isolated account with a full-scope key',
  description:
    "Creates an isolated account (its own clock, balance, limits and resources) and a key with every scope; the answer is the only time that key's secret is shown.",
  request: { body: json(AccountInput) },
  responses: {
    201: jsonResponse(z.object({ account: AccountView, key: KeyView }), 'Created.'),
    ...errorResponses([400]),
  },
});

export const getAccountRoute = route({
  method: 'get',
  path: '/accounts/{account_id}',
  operationId: 'getAccount',
  summary: 'An account with its clock',
  description: 'The account with its features, token balance, limits, download mode and clock.',
  request: { params: AccountParam },
  responses: { 200: jsonResponse(AccountView, 'The account.'), ...errorResponses([404]) },
});

export const createKeyRoute = (KeyInput: z.ZodType) =>
  route({
    method: 'post',
    path: '/accounts/{account_id}/keys',
    operationId: 'createKey',
    summary: 'A key with the given scopes; the answer is the only time the secret is shown',
    description:
      'Creates a key of the account with the given scopes (and expiry). The answer carries the secret, shown only here.',
    request: { params: AccountParam, body: json(KeyInput) },
    responses: { 201: jsonResponse(KeyView, 'Created.'), ...errorResponses([400, 404]) },
  });

export const revokeKeyRoute = route({
  method: 'post',
  path: '/keys/{key_id}/revoke',
  operationId: 'revokeKey',
  summary: 'The key answers 401 from then on',
  description: 'Revokes a key: product calls with it answer 401 `unauthenticated` from then on.',
  request: { params: KeyParam },
  responses: { 200: jsonResponse(KeyView, 'Revoked.'), ...errorResponses([404]) },
});

/** The account of that id, or 404 naming `account_id`. */
export function registerAccounts(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(createAccountRoute, (c) => {
    const input = c.req.valid('json');
    const created = deps.store.tx(() => {
      const acct = createAccount(deps, input);
      const scopes = fullScopes(deps.kinds);
      return { acct, key: createKey(deps, acct, { name: 'default', scopes }) };
    });
    return c.json({ account: accountView(deps, created.acct), key: keyView(created.key) }, 201);
  });

  app.openapi(getAccountRoute, (c) =>
    c.json(accountView(deps, accountOf(deps, c.req.valid('param').account_id)), 200),
  );

  app.openapi(createKeyRoute(keyInput(scopesOf(deps.kinds))), (c) => {
    const acct = accountOf(deps, c.req.valid('param').account_id);
    const key = deps.store.tx(() => createKey(deps, acct, c.req.valid('json') as KeyInput));
    return c.json(keyView(key), 201);
  });

  app.openapi(revokeKeyRoute, (c) => {
    const { key_id } = c.req.valid('param');
    const key = deps.store.keys.get(key_id);
    if (!key) throw notFound('key', key_id, 'key_id');
    const owner = accountOf(deps, key.accountId);
    deps.store.keys.revoke(key_id, toTimestamp(deps.clocks.now(owner)));
    return c.json(keyView(deps.store.keys.get(key_id)!), 200);
  });
}
