/**
 * What the world holds, listed for the inspector (issue 30): the accounts, an account's keys
 * (never their secrets) and webhook endpoints, and the run kinds served with a create body each.
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { AccountView, KeyView } from '../../areas/accounts/control.js';
import { accountView, keyView } from '../../areas/accounts/make-account.js';
import { ControlWebhookEndpoint } from '../../areas/webhooks/contract.js';
import { toControlWebhookEndpoint } from '../../areas/webhooks/endpoint-view.js';
import { accountOf } from '../../core/accounts/account-of.js';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { AccountParam, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES, notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';

const Page = z.object({
  after: z.string().optional().openapi({ description: 'An id: the page after it.' }),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const listAccountsRoute = route({
  method: 'get',
  path: '/accounts',
  operationId: 'listAccounts',
  summary: 'Every account with its clock, the most recently created first',
  description:
    'A page of the accounts, the most recently created first, each with its balance, limits and clock.',
  request: { query: Page },
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(AccountView), has_more: z.boolean() }),
      'The accounts.',
    ),
    ...errorResponses([400]),
  },
});

export const listKeysRoute = route({
  method: 'get',
  path: '/accounts/{account_id}/keys',
  operationId: 'listKeys',
  summary: "The account's keys with their scopes, never their secrets",
  description: "The account's keys, oldest first: names, scopes, expiry and revocation.",
  request: { params: AccountParam },
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(KeyView.omit({ secret: true })) }),
      'The keys.',
    ),
    ...errorResponses([404]),
  },
});

export const listEndpointsRoute = route({
  method: 'get',
  path: '/webhook_endpoints',
  operationId: 'listControlWebhookEndpoints',
  summary: "An account's webhook endpoints, never their signing secrets",
  description:
    "A page of the account's webhook endpoints (deleted ones left out), newest first, each `enabled` or `disabled`.",
  request: { query: Page.extend({ account: z.string() }) },
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        data: z.array(ControlWebhookEndpoint),
        has_more: z.boolean(),
      }),
      'The endpoints.',
    ),
    ...errorResponses([400, 404]),
  },
});

export const listKindsRoute = route({
  method: 'get',
  path: '/kinds',
  operationId: 'listKinds',
  summary: 'The run kinds served, with their phases and an example create body',
  description:
    'Each run kind: its name (`kind` of `POST /_control/accounts/{account_id}/runs`), collection, id prefix, phases in order, the failure codes an outcome may name, and the example body of its create operation in `/openapi.json`.',
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        data: z.array(
          z.object({
            kind: z.string(),
            collection: z.string(),
            prefix: z.string(),
            phases: z.array(z.string()),
            failure_codes: z.array(z.string()),
            example: z.record(z.string(), z.unknown()).nullable(),
          }),
        ),
      }),
      'The kinds.',
    ),
  },
});

/** A page of `items` after the one whose id is `after` (400 naming `after` if none is). */
function pageOf<T extends { id: string }>(items: T[], after: string | undefined, limit: number) {
  const from = after === undefined ? 0 : items.findIndex((i) => i.id === after) + 1;
  if (from === 0 && after !== undefined)
    throw invalidParam('after', MESSAGES.notFound('account', after));
  return { data: items.slice(from, from + limit), has_more: from + limit < items.length };
}

/** The value at `path` in parsed JSON, or undefined. */
function dig(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const key of path)
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** The example body of `POST /v1/<collection>` in the served document, if it has one. */
function createExample(doc: unknown, collection: string): Record<string, unknown> | null {
  const body = dig(doc, 'paths', `/v1/${collection}`, 'post', 'requestBody', 'content');
  const json = dig(body, 'application/json');
  const ref = dig(json, 'schema', '$ref');
  const schema =
    typeof ref === 'string'
      ? dig(doc, 'components', 'schemas', ref.split('/').at(-1)!)
      : dig(json, 'schema');
  const example = dig(json, 'example') ?? dig(schema, 'example');
  return typeof example === 'object' && example !== null
    ? (example as Record<string, unknown>)
    : null;
}

export function registerListings(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  productDocument: () => unknown,
): void {
  app.openapi(listAccountsRoute, (c) => {
    const { after, limit } = c.req.valid('query');
    const page = pageOf(deps.store.accounts.newestFirst(), after, limit);
    const data = page.data.map((a) => accountView(deps, a));
    return c.json({ object: 'list' as const, data, has_more: page.has_more }, 200);
  });

  app.openapi(listKeysRoute, (c) => {
    const account = accountOf(deps, c.req.valid('param').account_id);
    const data = deps.store.keys.ofAccount(account.id).map((k) => keyView(k));
    return c.json({ object: 'list' as const, data }, 200);
  });

  app.openapi(listEndpointsRoute, (c) => {
    const { account: id, after, limit } = c.req.valid('query');
    const account = deps.store.accounts.get(id);
    if (!account) throw notFound('account', id, 'account');
    const endpoints = deps.store.webhookEndpoints;
    if (after !== undefined && !endpoints.existsLive(account.id, after))
      throw invalidParam('after', MESSAGES.badCursor(after, 'a webhook endpoint'));
    const page = endpoints.list(account.id, { after, limit });
    const data = page.data.map(toControlWebhookEndpoint);
    return c.json({ object: 'list' as const, data, has_more: page.hasMore }, 200);
  });

  app.openapi(listKindsRoute, (c) => {
    const doc = productDocument();
    const data = deps.kinds.list.map(({ kind }) => ({
      kind: kind.name,
      collection: kind.collection,
      prefix: kind.prefix,
      phases: [...kind.phases],
      failure_codes: [...kind.failureCodes],
      example: createExample(doc, kind.collection),
    }));
    return c.json({ object: 'list' as const, data }, 200);
  });
}
