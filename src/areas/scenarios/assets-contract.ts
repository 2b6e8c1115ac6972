/**
 * Users' own environments and objects (inferred: API document 4.8 "not shown"; DESIGN.md
 * section 7): create, get, list, delete; each is `validating`, then `validated` or `rejected`
 * on the account's clock. Off under --strict.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  INFERRED,
  jsonResponse,
  listOf,
  Metadata,
  operationGuards,
  pageQuery,
  Timestamp,
  withArticle,
} from '../../core/contract.js';
import { EXAMPLE_ULID, errorAnswers } from '../../core/error-answers.js';

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
const versions = ['2026-09-27' as const];

/** What the four operations of one kind are built from: its schemas, path and guards. */
function assetParts<K extends 'environment' | 'object'>(kind: K, plural: string, Kind: string) {
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
  const common = { ...INFERRED, tags: TAG };
  const read = { ...common, ...operationGuards({ versions, scope: 'scenarios:read' }) };
  const write = { ...common, ...operationGuards({ versions, scope: 'scenarios:write' }) };
  const prefix = kind === 'environment' ? 'env' : 'obj';
  const named = { noun: kind, id: `${prefix}_${EXAMPLE_ULID}`, param };
  return { kind, plural, Kind, Asset, Deletion, param, IdParam, read, write, named };
}
type AssetParts<K extends 'environment' | 'object'> = ReturnType<typeof assetParts<K>>;

/** `POST /v1/<plural>`. */
function createAssetRoute<K extends 'environment' | 'object'>(p: AssetParts<K>) {
  return createRoute({
    method: 'post',
    path: `/v1/${p.plural}`,
    operationId: `create${p.Kind}`,
    summary: `Create ${withArticle(p.kind)} (inferred); it is validating for 2 virtual seconds`,
    ...p.write,
    request: {
      body: { required: true, content: { 'application/json': { schema: CreateAssetBody } } },
    },
    responses: {
      201: jsonResponse(p.Asset, `The ${p.kind}, validating.`),
      ...errorAnswers([400, 401, 403, 413, 429]),
    },
  });
}

/** `GET /v1/<plural>`. */
function listAssetsRoute<K extends 'environment' | 'object'>(p: AssetParts<K>) {
  return createRoute({
    method: 'get',
    path: `/v1/${p.plural}`,
    operationId: `list${p.Kind}s`,
    summary: `List the account's ${p.plural}, newest first (inferred)`,
    ...p.read,
    request: {
      query: z.object({
        status: z.enum(ASSET_STATUSES).optional(),
        ...pageQuery(),
      }),
    },
    responses: {
      200: jsonResponse(listOf(p.Asset, `User${p.Kind}List`), 'A page.'),
      ...errorAnswers([400, 401, 403, 429]),
    },
  });
}

/** `GET /v1/<plural>/{id}`. */
function getAssetRoute<K extends 'environment' | 'object'>(p: AssetParts<K>) {
  return createRoute({
    method: 'get',
    path: `/v1/${p.plural}/{${p.param}}`,
    operationId: `get${p.Kind}`,
    summary: `Get ${withArticle(p.kind)} (inferred)`,
    ...p.read,
    request: { params: p.IdParam },
    responses: {
      200: jsonResponse(p.Asset, `The ${p.kind}.`),
      ...errorAnswers([400, 401, 403, 404, 429], { resource: p.named }),
    },
  });
}

/** `DELETE /v1/<plural>/{id}`. */
function deleteAssetRoute<K extends 'environment' | 'object'>(p: AssetParts<K>) {
  return createRoute({
    method: 'delete',
    path: `/v1/${p.plural}/{${p.param}}`,
    operationId: `delete${p.Kind}`,
    summary: `Delete ${withArticle(p.kind)} (inferred)`,
    ...p.write,
    request: { params: p.IdParam },
    responses: {
      200: jsonResponse(p.Deletion, `The ${p.kind} is deleted.`),
      ...errorAnswers([400, 401, 403, 404, 429], { resource: p.named }),
    },
  });
}

/** The four operations of one kind: `environment` (`env_`) or `object` (`obj_`). */
function assetRoutes<K extends 'environment' | 'object'>(kind: K, plural: string, Kind: string) {
  const parts = assetParts(kind, plural, Kind);
  return {
    Asset: parts.Asset,
    create: createAssetRoute(parts),
    list: listAssetsRoute(parts),
    get: getAssetRoute(parts),
    remove: deleteAssetRoute(parts),
  };
}

export const environmentRoutes = assetRoutes('environment', 'environments', 'Environment');
export const objectRoutes = assetRoutes('object', 'objects', 'Object');
