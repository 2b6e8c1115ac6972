/** Twin files (API document sections 2.6, 3.2 and 4.6). */
import { createRoute, z } from '@hono/zod-openapi';
import {
  errorResponses,
  FileEntry,
  FilePageQuery,
  jsonResponse,
  listOf,
  operationGuards,
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
