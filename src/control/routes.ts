/** The control API's routes as data (DESIGN.md section 5). Not part of the product API. */
import { z } from '@hono/zod-openapi';
import { errorResponses, jsonResponse, Timestamp } from '../contract/common.js';
import { AccountInput, KeyInput, LimitsSchema } from '../contract/control-inputs.js';
import { ScenarioFile } from '../contract/scenario-file.js';
import { AccountParam, json, route } from './route-helpers.js';

export * from './clock-routes.js';
export { route } from './route-helpers.js';
export * from './seed-routes.js';

const KeyParam = z.object({
  key_id: z.string().openapi({ param: { name: 'key_id', in: 'path' } }),
});

const AccountView = z
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
const KeyView = z
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
export const healthRoute = route({
  method: 'get',
  path: '/health',
  operationId: 'health',
  summary: 'Liveness; used by the Docker HEALTHCHECK',
  description:
    "Answers 200 with the version and uptime while the emulator serves. The Docker image's HEALTHCHECK and CI jobs wait for it.",
  responses: {
    200: jsonResponse(
      z.object({ status: z.literal('ok'), version: z.string(), uptime_s: z.number() }),
      'Up.',
    ),
  },
});

export const resetRoute = route({
  method: 'post',
  path: '/reset',
  operationId: 'reset',
  summary: 'Back to the loaded (or named) scenario: everything, or one account',
  description:
    'Puts the world back to the loaded scenario, or to the named `scenario`; with `account`, only that account is reset (its clock, resources, keys, journal). An empty body resets everything.',
  request: {
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z
            .object({ scenario: z.string().optional(), account: z.string().optional() })
            .strict()
            .openapi({ example: { account: 'acct_00000000000000000000000001' } }),
        },
      },
    },
  },
  responses: {
    200: jsonResponse(z.object({ scenario: z.string(), account: z.string().nullable() }), 'Reset.'),
    ...errorResponses([400, 404]),
  },
});

export const listScenariosRoute = route({
  method: 'get',
  path: '/scenarios',
  operationId: 'listScenarios',
  summary: 'The scenario files in scenarios/',
  description:
    'The scenario files of the scenarios directory, with their descriptions, and the name of the one loaded.',
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        loaded: z.string(),
        data: z.array(z.object({ name: z.string(), description: z.string().nullable() })),
      }),
      'Scenarios.',
    ),
  },
});

export const loadScenarioRoute = route({
  method: 'post',
  path: '/scenarios/load',
  operationId: 'loadScenario',
  summary: 'Replace the world with a named or inline scenario',
  description:
    'Replaces the whole world with a scenario: `{name}` loads a file of the scenarios directory, `{scenario}` an inline scenario in the same format.',
  request: {
    body: json(
      z
        .union([
          z.object({ name: z.string() }).strict(),
          z.object({ scenario: ScenarioFile }).strict(),
        ])
        .openapi({ example: { name: 'default' } }),
    ),
  },
  responses: {
    200: jsonResponse(z.object({ scenario: z.string() }), 'Loaded.'),
    ...errorResponses([400, 404]),
  },
});

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

export const createKeyRoute = route({
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
