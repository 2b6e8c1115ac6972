/**
 * Users' own environments and objects (inferred: API document 4.8 "not shown"; DESIGN.md
 * section 7): create, get, list, delete; each is `validating`, then `validated` or `rejected`
 * on the account's clock. Off under --strict.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  errorResponses,
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  Timestamp,
} from './common.js';

export const ASSET_STATUSES = ['validating', 'validated', 'rejected'] as const;

export const CreateAssetBody = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
    metadata: Metadata.optional(),
    options: z
      .object({
        emulator: z
          .object({
            reject: z.boolean().optional().openapi({
              description: 'Emulator only: validation ends `rejected` instead of `validated`.',
            }),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('CreateUserAssetRequest', {
    ...INFERRED,
    example: { name: 'Kitchen counter', description: 'Uploaded for a custom scenario.' },
  });

const TAG = ['Objects and environments'];
const versions = ['2026-09-27'] as const;

/** The four operations of one kind: `environment` (`env_`) or `object` (`obj_`). */
function assetRoutes<K extends 'environment' | 'object'>(kind: K, plural: string, Kind: string) {
  const Asset = z
    .object({
      id: z.string(),
      object: z.literal(kind),
      name: z.string(),
      description: z.string().nullable(),
      metadata: Metadata,
      status: z.enum(ASSET_STATUSES),
      created_at: Timestamp,
    })
    .openapi(`User${Kind}`, INFERRED);
  const Deletion = z
    .object({ id: z.string(), object: z.literal(kind), deleted: z.boolean() })
    .openapi(`User${Kind}Deletion`, INFERRED);
  const param = `${kind}_id`;
  const IdParam = z.object({
    [param]: z.string().openapi({ param: { name: param, in: 'path' } }),
  });
  const read = operationGuards({ versions: [...versions], scope: 'scenarios:read' });
  const write = operationGuards({ versions: [...versions], scope: 'scenarios:write' });
  const common = { ...INFERRED, tags: TAG };
  return {
    Asset,
    create: createRoute({
      method: 'post',
      path: `/v1/${plural}`,
      operationId: `create${Kind}`,
      summary: `Create a ${kind} (inferred); it is validating for 2 virtual seconds`,
      ...common,
      ...write,
      request: {
        body: { required: true, content: { 'application/json': { schema: CreateAssetBody } } },
      },
      responses: {
        201: jsonResponse(Asset, `The ${kind}, validating.`),
        ...errorResponses([400, 401, 403, 413, 429]),
      },
    }),
    list: createRoute({
      method: 'get',
      path: `/v1/${plural}`,
      operationId: `list${Kind}s`,
      summary: `List the account's ${plural}, newest first (inferred)`,
      ...common,
      ...read,
      request: {
        query: z.object({
          status: z.enum(ASSET_STATUSES).optional(),
          after: z.string().optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
      },
      responses: {
        200: jsonResponse(listOf(Asset, `User${Kind}List`), 'A page.'),
        ...errorResponses([400, 401, 403, 429]),
      },
    }),
    get: createRoute({
      method: 'get',
      path: `/v1/${plural}/{${param}}`,
      operationId: `get${Kind}`,
      summary: `Get a ${kind} (inferred)`,
      ...common,
      ...read,
      request: { params: IdParam },
      responses: {
        200: jsonResponse(Asset, `The ${kind}.`),
        ...errorResponses([400, 401, 403, 404, 429]),
      },
    }),
    remove: createRoute({
      method: 'delete',
      path: `/v1/${plural}/{${param}}`,
      operationId: `delete${Kind}`,
      summary: `Delete a ${kind} (inferred)`,
      ...common,
      ...write,
      request: { params: IdParam },
      responses: {
        200: jsonResponse(Deletion, `The ${kind} is deleted.`),
        ...errorResponses([400, 401, 403, 404, 429]),
      },
    }),
  };
}

export const environmentRoutes = assetRoutes('environment', 'environments', 'Environment');
export const objectRoutes = assetRoutes('object', 'objects', 'Object');
