/** The control API's routes as data (DESIGN.md section 5). Not part of the product API. */
import { z } from '@hono/zod-openapi';
import { errorResponses, jsonResponse, Timestamp } from '../contract/common.js';
import {
  AccountInput,
  ClockInstant,
  ClockModeSchema,
  KeyInput,
  LimitsSchema,
} from '../contract/control-inputs.js';
import { ScenarioFile } from '../contract/scenario-file.js';
import { AccountParam, json, route } from './route-helpers.js';

export { route } from './route-helpers.js';
export * from './seed-routes.js';

const KeyParam = z.object({
  key_id: z.string().openapi({ param: { name: 'key_id', in: 'path' } }),
});

export const ClockView = z
  .object({ account_id: z.string(), now: Timestamp, mode: z.string() })
  .openapi('ControlClock');
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
  .openapi('ControlAccount');
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
const Transition = z
  .object({
    at: Timestamp,
    resource: z.string(),
    from: z.string(),
    to: z.string(),
    phase: z.string().nullable(),
  })
  .openapi('ControlTransition');

export const healthRoute = route({
  method: 'get',
  path: '/health',
  operationId: 'health',
  summary: 'Liveness; used by the Docker HEALTHCHECK',
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
  request: {
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z
            .object({ scenario: z.string().optional(), account: z.string().optional() })
            .strict(),
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
  request: {
    body: json(
      z.union([
        z.object({ name: z.string() }).strict(),
        z.object({ scenario: ScenarioFile }).strict(),
      ]),
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
  request: { params: AccountParam },
  responses: { 200: jsonResponse(AccountView, 'The account.'), ...errorResponses([404]) },
});

export const createKeyRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/keys',
  operationId: 'createKey',
  summary: 'A key with the given scopes; the answer is the only time the secret is shown',
  request: { params: AccountParam, body: json(KeyInput) },
  responses: { 201: jsonResponse(KeyView, 'Created.'), ...errorResponses([400, 404]) },
});

export const revokeKeyRoute = route({
  method: 'post',
  path: '/keys/{key_id}/revoke',
  operationId: 'revokeKey',
  summary: 'The key answers 401 from then on',
  request: { params: KeyParam },
  responses: { 200: jsonResponse(KeyView, 'Revoked.'), ...errorResponses([404]) },
});

export const getClockRoute = route({
  method: 'get',
  path: '/accounts/{account_id}/clock',
  operationId: 'getClock',
  summary: "The account's virtual clock",
  request: { params: AccountParam },
  responses: { 200: jsonResponse(ClockView, 'The clock.'), ...errorResponses([404]) },
});

export const setClockRoute = route({
  method: 'put',
  path: '/accounts/{account_id}/clock',
  operationId: 'setClock',
  summary: 'Set the mode, or move `now` forward',
  request: {
    params: AccountParam,
    body: json(
      z
        .object({
          mode: ClockModeSchema.optional(),
          now: ClockInstant.optional(),
        })
        .strict(),
    ),
  },
  responses: { 200: jsonResponse(ClockView, 'The clock.'), ...errorResponses([400, 404]) },
});

export const advanceClockRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/clock/advance',
  operationId: 'advanceClock',
  summary: 'Advance by seconds or to an instant; answers the transitions applied, in order',
  request: {
    params: AccountParam,
    body: json(
      z
        .object({
          seconds: z
            .number()
            .min(0)
            .max(10 * 365 * 86_400)
            .optional(),
          to: ClockInstant.optional(),
        })
        .strict()
        .refine((b) => (b.seconds === undefined) !== (b.to === undefined), {
          message: 'give exactly one of seconds and to',
        }),
    ),
  },
  responses: {
    200: jsonResponse(ClockView.extend({ transitions: z.array(Transition) }), 'Advanced.'),
    ...errorResponses([400, 404]),
  },
});
