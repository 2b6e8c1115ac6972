/** The control API's seeding routes (DESIGN.md section 5): resources of an account in any state. */
import { z } from '@hono/zod-openapi';
import { errorResponses, jsonResponse, Timestamp } from '../contract/common.js';
import {
  EvaluationInput,
  RunSeedInput,
  TwinInput,
  UserAssetInput,
  WebhookEndpointInput,
} from '../contract/control-inputs.js';
import { CreatedWebhookEndpoint } from '../contract/webhooks.js';
import { Evaluation, RUN_STATUSES } from '../kinds/evaluations/contract.js';
import { AccountParam, json, route } from './route-helpers.js';

export const seedEvaluationRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/evaluations',
  operationId: 'seedEvaluation',
  summary: 'An evaluation in a given state, with its logs and files',
  description:
    'Creates an evaluation in a fixed state (with the fields given), or without `status` puts it on the clock like a created one, following `outcomes`. Logs and files may be given.',
  request: { params: AccountParam, body: json(EvaluationInput) },
  responses: {
    201: jsonResponse(Evaluation, 'Created.'),
    ...errorResponses([400, 402, 404], {
      402: 'A run put on the clock is charged like a created one: `insufficient_tokens`.',
    }),
  },
});

export const seedRunRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/runs',
  operationId: 'seedRun',
  summary: 'A run of any kind in a given state, or on the clock with an outcome plan',
  description:
    "`kind` names the run kind (`augmentation`, `training_run`, `rl_run`, `evaluation`, `scenario_run`, ...); the other fields are the kind's create body, as `POST /v1/<kind>` takes it, plus the seed fields. Answers the run as `GET /v1/<kind>/{id}` shows it.",
  request: { params: AccountParam, body: json(RunSeedInput) },
  responses: {
    201: jsonResponse(
      z
        .object({ id: z.string(), object: z.string(), status: z.string() })
        .catchall(z.unknown())
        .openapi('ControlRun'),
      'Created: the run as its kind shows it.',
    ),
    ...errorResponses([400, 402, 404], {
      402: 'A run put on the clock is charged like a created one: `insufficient_tokens`.',
    }),
  },
});

export const seedTwinRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/twins',
  operationId: 'seedTwin',
  summary: 'A twin in a given state, with generated or given files',
  description:
    'Creates a twin in a fixed state with given or generated files, or without `status` builds it on the clock.',
  request: { params: AccountParam, body: json(TwinInput) },
  responses: {
    201: jsonResponse(
      z.object({
        id: z.string(),
        object: z.literal('twin'),
        status: z.enum(RUN_STATUSES),
        file_count: z.number().int(),
        created_at: Timestamp,
      }),
      'Created.',
    ),
    ...errorResponses([400, 404]),
  },
});

export const seedWebhookEndpointRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/webhook_endpoints',
  operationId: 'seedWebhookEndpoint',
  summary: 'A webhook endpoint',
  description:
    'Creates a webhook endpoint of the account, as `POST /v1/webhook_endpoints` would, with its signing secret.',
  request: { params: AccountParam, body: json(WebhookEndpointInput) },
  responses: {
    201: jsonResponse(
      CreatedWebhookEndpoint,
      'Created: the endpoint as the product API shows it, with its signing secret.',
    ),
    ...errorResponses([400, 404]),
  },
});

const AssetView = z
  .object({
    id: z.string(),
    object: z.enum(['environment', 'object']),
    name: z.string(),
    status: z.string(),
    created_at: Timestamp,
  })
  .openapi('ControlUserAsset');

export const seedEnvironmentRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/environments',
  operationId: 'seedEnvironment',
  summary: 'A user environment (`env_`) that scenarios may name once validated',
  description: 'Creates a user environment (`env_`), validated unless `status` says otherwise.',
  request: { params: AccountParam, body: json(UserAssetInput) },
  responses: { 201: jsonResponse(AssetView, 'Created.'), ...errorResponses([400, 404]) },
});

export const seedObjectRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/objects',
  operationId: 'seedObject',
  summary: 'A user object (`obj_`) that scenarios may name once validated',
  description: 'Creates a user object (`obj_`), validated unless `status` says otherwise.',
  request: { params: AccountParam, body: json(UserAssetInput) },
  responses: { 201: jsonResponse(AssetView, 'Created.'), ...errorResponses([400, 404]) },
});
