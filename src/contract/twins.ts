/** Twins and their files (API document sections 2.6, 3.2 and 4.6; the rest inferred). */
import { createRoute, z } from '@hono/zod-openapi';
import {
  errorResponses,
  FileEntry,
  FilePageQuery,
  INFERRED,
  jsonResponse,
  listOf,
  operationGuards,
  Timestamp,
} from './common.js';

export const TWIN_STATUSES = ['queued', 'processing', 'succeeded', 'failed'] as const;
export type TwinStatus = (typeof TWIN_STATUSES)[number];

export const TwinFile = FileEntry.extend({ object: z.literal('twin_file') }).openapi('TwinFile');
export const TwinFileList = listOf(TwinFile, 'TwinFileList');

export const TwinIdParam = z.object({
  twin_id: z.string().openapi({ param: { name: 'twin_id', in: 'path' } }),
});

export const listTwinFilesRoute = createRoute({
  method: 'get',
  path: '/v1/twins/{twin_id}/files',
  operationId: 'listTwinFiles',
  tags: ['Twins'],
  summary: "Every file in a succeeded twin's archive",
  description:
    'Paths in byte order. Twins are enabled per account: other accounts answer 403 `feature_not_enabled` (inferred).',
  ...operationGuards({ versions: ['2026-09-27'], scope: 'twins:read', feature: 'twins' }),
  request: { params: TwinIdParam, query: FilePageQuery },
  responses: {
    200: jsonResponse(TwinFileList, 'A page of files.'),
    ...errorResponses([400, 401, 403, 404, 409, 429], {
      409: 'The twin has not succeeded: `twin_not_ready`.',
    }),
  },
});

// Inferred operations (API document 4.8: "not shown"; DESIGN.md section 3). Off under --strict.

export const Twin = z
  .object({
    id: z.string().openapi({ example: 'twin_01KDVMMPE08W844SYEQB8P3ESJ' }),
    object: z.literal('twin'),
    status: z.enum(TWIN_STATUSES),
    file_count: z.number().int().nullable().openapi({
      description: 'Files in the archive (what `/files` lists); null until the twin has succeeded.',
    }),
    created_at: Timestamp,
    started_at: Timestamp.nullable().openapi({ description: 'When processing began.' }),
    completed_at: Timestamp.nullable().openapi({ description: 'When it succeeded or failed.' }),
  })
  .openapi('Twin', INFERRED);

export const TwinList = listOf(Twin, 'TwinList');

const inferred = { ...INFERRED, tags: ['Twins'] };
const readGuards = operationGuards({
  versions: ['2026-09-27'],
  scope: 'twins:read',
  feature: 'twins',
});

export const getTwinRoute = createRoute({
  method: 'get',
  path: '/v1/twins/{twin_id}',
  operationId: 'getTwin',
  summary: 'Get a twin (inferred)',
  description: "Needs the account's `twins` feature, like the file listing.",
  ...inferred,
  ...readGuards,
  request: { params: TwinIdParam },
  responses: {
    200: jsonResponse(Twin, 'The twin.'),
    ...errorResponses([400, 401, 403, 404, 429]),
  },
});

export const listTwinsRoute = createRoute({
  method: 'get',
  path: '/v1/twins',
  operationId: 'listTwins',
  summary: 'List twins, newest first (inferred)',
  description: "Needs the account's `twins` feature, like the file listing.",
  ...inferred,
  ...readGuards,
  request: {
    query: z.object({
      status: z.enum(TWIN_STATUSES).optional(),
      after: z.string().optional().openapi({
        description:
          "The id of the last twin of the previous page; an id that is not one of the account's twins answers 400 `parameter_invalid`.",
      }),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: jsonResponse(TwinList, 'A page.'),
    ...errorResponses([400, 401, 403, 429]),
  },
});
