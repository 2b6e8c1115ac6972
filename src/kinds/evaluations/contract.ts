/** Evaluations (API document sections 2.2 to 2.5, 3.1 and 4.1). */
import { createRoute, z } from '@hono/zod-openapi';
import {
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  pageQuery,
  SUPPORTED_VERSIONS,
  Timestamp,
} from '../../core/contract.js';
import {
  EXAMPLE_ULID,
  errorAnswers,
  type NamedResource,
  RUN_START_LIMITS,
} from '../../core/error-answers.js';
import { ARCHIVE_HEADERS, archiveResponses } from '../../engine/contract/archive.js';
import {
  Download,
  RUN_STATUSES,
  RunError,
  type RunKindAddress,
  StepCounter,
} from '../../engine/contract/run-shapes.js';
import { EVALUATION_EXAMPLE } from './example.js';

export const ADDRESS = {
  name: 'evaluation',
  prefix: 'eval',
  legacyPrefixes: ['srun'],
  collection: 'evaluations',
  scope: 'evaluations',
  // Logs and files under `sim_runs`: API document sections 4.4 and 4.5, DESIGN.md 3 "Sim runs".
  logsAndFilesUnder: 'sim_runs',
  tag: 'Evaluations',
  tagDescription:
    "Evaluate a policy on an SDK spec on the service's machines: episodes, evaluators, a scorecard (beta).",
} as const satisfies RunKindAddress;

export const PHASES = [
  'materializing',
  'planning',
  'fetching',
  'running',
  'verifying',
  'packaging',
] as const;
export type Phase = (typeof PHASES)[number];

/** Section 2.4's metric; every field is in every metric the emulator sends, null when unknown. */
const Metric = z
  .object({
    id: z.string(),
    version: z.string().nullable(),
    value: z.number().nullable(),
    interval: z.array(z.number().nullable()).nullable(),
    n: z.number().int().nullable(),
  })
  .openapi('EvaluationMetric');

/** Section 2.4 requires only `verified`; every result the emulator sends has every field. */
export const EvaluationResult = z
  .object({
    verified: z.boolean(),
    run_id: z.string().nullable(),
    manifest_hash: z.string().nullable(),
    run_hash: z.string().nullable(),
    determinism_verified: z.boolean().nullable(),
    metrics: z.array(Metric),
  })
  .openapi('EvaluationResult');

export const Spec = z.object({ path: z.string(), name: z.string() }).catchall(z.unknown());

/**
 * Section 2.2 requires `id`, `status`, `progress` and `tokens`, but every body has every field
 * (null where there is nothing to say), so the schema requires all: clients type none undefined.
 */
export const Evaluation = z
  .object({
    id: z.string().openapi({ example: EVALUATION_EXAMPLE.id }),
    object: z.literal('evaluation'),
    status: z.enum(RUN_STATUSES),
    phase: z.enum(PHASES).nullable(),
    progress: z.number().min(0).max(1),
    status_message: z.string().nullable(),
    episodes: StepCounter.nullable(),
    spec: Spec,
    error: RunError.nullable(),
    service_version: z.string().nullable(),
    options: Metadata,
    label: z.string().nullable(),
    result: EvaluationResult.nullable(),
    download: Download.nullable(),
    tokens: z.object({ charged: z.number().int(), refunded: z.number().int() }),
    webhook_metadata: Metadata.nullable(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    links: z.record(z.string(), z.string()),
  })
  .openapi('Evaluation', { example: EVALUATION_EXAMPLE });

export const RunIdParam = z.object({
  run_id: z.string().openapi({
    param: { name: 'run_id', in: 'path' },
    description: 'An evaluation id: `eval_...`, or `srun_...` for runs created before the rename.',
  }),
});

/** The evaluation a path names, as its 404 names it. */
export const NAMED_EVALUATION: NamedResource = {
  noun: 'evaluation',
  id: `eval_${EXAMPLE_ULID}`,
  param: 'run_id',
};

export const resumeEvaluationRoute = createRoute({
  method: 'post',
  path: '/v1/evaluations/{run_id}/resume',
  operationId: 'resumeEvaluation',
  tags: ['Evaluations'],
  summary: 'Resume a failed or canceled evaluation',
  description:
    'Runs a failed or canceled evaluation again from its original request (beta). A run in any other state, or whose error is not resumable, answers 409 `not_resumable` (inferred).',
  ...operationGuards({ versions: SUPPORTED_VERSIONS, scope: 'evaluations:write' }),
  request: { params: RunIdParam },
  responses: {
    202: jsonResponse(Evaluation, 'The evaluation, back in `queued`.'),
    ...errorAnswers([400, 401, 402, 403, 404, 409, 429, 502], {
      codes: { 409: ['not_resumable', 'idempotency_key_reused'], 429: RUN_START_LIMITS },
      resource: NAMED_EVALUATION,
    }),
  },
});

// Inferred operations (API document 4.8: "not shown"; DESIGN.md section 3). Off under --strict.

export const CreateEvaluationBody = z
  .object({
    spec: Spec.openapi({
      description: 'The SDK spec: `path` and `name` required.',
      example: { path: 'specs/pick_place.yaml', name: 'pick_place' },
    }),
    options: Metadata.optional().openapi({
      description:
        'Run options (free-form). The emulator reads `episodes` (1..10000, default 10) and `emulator` (`outcomes`, `durations_s`).',
    }),
    label: z.string().max(200).nullable().optional(),
    webhook_metadata: Metadata.nullable().optional(),
  })
  .strict()
  .openapi('CreateEvaluationRequest', {
    example: {
      spec: { path: 'specs/pick_place.yaml', name: 'pick_place' },
      options: { episodes: 10 },
      label: 'nightly',
    },
  });

const inferred = { ...INFERRED, tags: ['Evaluations'] };
const readGuards = operationGuards({ versions: ['2026-09-27'], scope: 'evaluations:read' });
const writeGuards = operationGuards({ versions: ['2026-09-27'], scope: 'evaluations:write' });

export const createEvaluationRoute = createRoute({
  method: 'post',
  path: '/v1/evaluations',
  operationId: 'createEvaluation',
  summary: 'Create an evaluation (inferred)',
  description:
    "Queued at once; runs its phases on the account's virtual clock (advance it with the control API under `--clock manual`) and yields a scorecard and an archive.",
  ...inferred,
  ...writeGuards,
  request: {
    body: { required: true, content: { 'application/json': { schema: CreateEvaluationBody } } },
  },
  responses: {
    201: jsonResponse(Evaluation, 'The evaluation, `queued`.'),
    ...errorAnswers([400, 401, 402, 403, 409, 413, 429], { codes: { 429: RUN_START_LIMITS } }),
  },
});

export const getEvaluationRoute = createRoute({
  method: 'get',
  path: '/v1/evaluations/{run_id}',
  operationId: 'getEvaluation',
  summary: 'Get an evaluation (inferred)',
  description:
    "The evaluation as it stands on the account's clock: every field present, null where there is nothing to say yet.",
  ...inferred,
  ...readGuards,
  request: { params: RunIdParam },
  responses: {
    200: jsonResponse(Evaluation, 'The evaluation.'),
    ...errorAnswers([400, 401, 403, 404, 429], { resource: NAMED_EVALUATION }),
  },
});

export const listEvaluationsRoute = createRoute({
  method: 'get',
  path: '/v1/evaluations',
  operationId: 'listEvaluations',
  summary: 'List evaluations, newest first (inferred)',
  description:
    'Newest first, optionally of one `status`; page with `after` (the last id seen) while `has_more`.',
  ...inferred,
  ...readGuards,
  request: {
    query: z.object({
      status: z.enum(RUN_STATUSES).optional(),
      ...pageQuery(
        "The id of the last item of the previous page; an id that is not one of the account's evaluations answers 400 `parameter_invalid`.",
      ),
    }),
  },
  responses: {
    200: jsonResponse(listOf(Evaluation, 'EvaluationList'), 'A page.'),
    ...errorAnswers([400, 401, 403, 429]),
  },
});

export const cancelEvaluationRoute = createRoute({
  method: 'post',
  path: '/v1/evaluations/{run_id}/cancel',
  operationId: 'cancelEvaluation',
  summary: 'Cancel an evaluation (inferred): `canceling`, then `canceled`',
  description:
    'A queued or processing evaluation goes to `canceling`, then `canceled`; a terminal one answers 409 `not_cancelable`.',
  ...inferred,
  ...writeGuards,
  request: { params: RunIdParam },
  responses: {
    202: jsonResponse(Evaluation, 'The evaluation, `canceling`.'),
    ...errorAnswers([400, 401, 403, 404, 409, 429], {
      codes: { 409: ['not_cancelable'] },
      resource: NAMED_EVALUATION,
    }),
  },
});

export const getArchiveRoute = createRoute({
  method: 'get',
  path: '/v1/evaluations/{run_id}/archive',
  operationId: 'getEvaluationArchive',
  summary: 'Download the archive `<id>.tar.gz` (inferred); HEAD, Range and conditional requests',
  description:
    'The archive of a succeeded evaluation; it extracts to `<id>/`, the SDK run directory. Its SHA-256 is `download.sha256` and the `ETag`.',
  ...inferred,
  ...readGuards,
  parameters: [...readGuards.parameters, ...ARCHIVE_HEADERS],
  request: { params: RunIdParam },
  responses: archiveResponses('run_not_ready', NAMED_EVALUATION),
});
