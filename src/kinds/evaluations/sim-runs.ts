/** Sim run logs and files (API document sections 2.6, 4.4 and 4.5; DESIGN.md section 3). */
import { createRoute, z } from '@hono/zod-openapi';
import {
  FileEntry,
  FilePageQuery,
  INFERRED,
  jsonResponse,
  listOf,
  operationGuards,
} from '../../core/contract.js';
import { errorAnswers } from '../../core/error-answers.js';
import type { RunRoutes } from '../../engine/contract/run-routes.js';
import {
  CreateEvaluationBody,
  cancelEvaluationRoute,
  createEvaluationRoute,
  Evaluation,
  getArchiveRoute,
  getEvaluationRoute,
  listEvaluationsRoute,
  NAMED_EVALUATION,
  RunIdParam,
  resumeEvaluationRoute,
} from './contract.js';

const SimRunLogs = z
  .object({
    id: z.string(),
    object: z.literal('sim_run_logs'),
    lines: z.array(z.string()),
  })
  .openapi('SimRunLogs', {
    example: {
      id: 'eval_01KDVDNA00FBZ34S3TAF1ZB8D7',
      object: 'sim_run_logs',
      lines: [
        '2026-01-01T00:00:04.500Z phase verifying started',
        '2026-01-01T00:00:04.800Z phase packaging started',
        '2026-01-01T00:00:05.000Z run succeeded: success_rate=0.8 (8/10)',
      ],
    },
  });

const SimRunFile = FileEntry.extend({ object: z.literal('sim_run_file') }).openapi('SimRunFile', {
  example: {
    path: 'episodes/0001.json',
    bytes: 121,
    sha256: 'c1a86c76522bb7b4a9cf3d8b9977287772eb4e868388712dcaea16dd212646cc',
    object: 'sim_run_file',
  },
});

const LogsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(5000)
    .default(100)
    .openapi({
      description:
        'How many of the last lines to return, 1 to 5000. The name and default are inferred.',
      ...INFERRED,
    }),
});

const RUN_ID_NOTE =
  'Takes an evaluation id (`eval_` or `srun_`): an evaluation was formerly called a sim run (inferred).';

/** A 404 of the logs and files names the run a sim run (`subresourceNoun` below). */
const SIM_RUN = { ...NAMED_EVALUATION, noun: 'sim run' };

const getSimRunLogsRoute = createRoute({
  method: 'get',
  path: '/v1/sim_runs/{run_id}/logs',
  operationId: 'getSimRunLogs',
  tags: ['Evaluations'],
  summary: 'The tail of the SDK log of a run',
  description: `Oldest line first; readable while the run builds and after it ends (preview). ${RUN_ID_NOTE}`,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'evaluations:read' }),
  request: { params: RunIdParam, query: LogsQuery },
  responses: {
    200: jsonResponse(SimRunLogs, 'The last `limit` lines.'),
    ...errorAnswers([400, 401, 403, 404, 429], { resource: SIM_RUN }),
  },
});

const listSimRunFilesRoute = createRoute({
  method: 'get',
  path: '/v1/sim_runs/{run_id}/files',
  operationId: 'listSimRunFiles',
  tags: ['Evaluations'],
  summary: "Every file of a succeeded run's directory",
  description: `Paths relative to the run directory, in byte order (preview). ${RUN_ID_NOTE}`,
  ...operationGuards({ versions: ['2026-09-27'], scope: 'evaluations:read' }),
  request: { params: RunIdParam, query: FilePageQuery },
  responses: {
    200: jsonResponse(listOf(SimRunFile, 'SimRunFileList'), 'A page of files.'),
    ...errorAnswers([400, 401, 403, 404, 409, 429], {
      codes: { 409: ['run_not_ready'] },
      resource: SIM_RUN,
    }),
  },
});

/** The evaluations' routes for the engine: resume, logs and files documented (4.1, 4.4, 4.5). */
export const evaluationRoutes: RunRoutes = {
  create: createEvaluationRoute,
  get: getEvaluationRoute,
  list: listEvaluationsRoute,
  cancel: cancelEvaluationRoute,
  resume: resumeEvaluationRoute,
  archive: getArchiveRoute,
  files: listSimRunFilesRoute,
  logs: getSimRunLogsRoute,
  objects: { file: 'sim_run_file', logs: 'sim_run_logs' },
  subresourceNoun: 'sim run',
  createBody: CreateEvaluationBody,
  resource: Evaluation,
  idParam: 'run_id',
  notReadyCode: 'run_not_ready',
  // API document sections 4.1, 4.4 and 4.5; the rest is inferred.
  documented: ['resume', 'files', 'logs'],
};
