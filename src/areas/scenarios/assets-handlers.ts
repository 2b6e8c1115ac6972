import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { checkCursor } from '../../core/cursor.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import { toTimestamp } from '../../core/timestamp.js';
import {
  type AssetStatus,
  assetAt,
  storedStatuses,
  toUserAsset,
  VALIDATION_MS,
} from './asset-view.js';
import { type CreateAssetBody, environmentRoutes, objectRoutes } from './assets-contract.js';
import type { UserAssetKind, UserAssetRecord } from './records.js';

/** The path's `<kind>_id`. */
const idOf = (c: Context<AppEnv>, kind: UserAssetKind) =>
  (c.req.param() as Record<string, string>)[`${kind}_id`]!;

/** One of the caller's assets of this kind, as of now; another account's id answers 404. */
function find(c: Context<AppEnv>, kind: UserAssetKind, id: string): UserAssetRecord {
  const asset = c.get('deps').store.userAssets.get(c.get('auth').account.id, id);
  if (!asset || asset.kind !== kind) throw notFound(kind, id, `${kind}_id`);
  return assetAt(asset, toTimestamp(c.get('now')));
}

/** Validated inputs of the create and list routes, the same for both kinds. */
type CreateBody = z.output<typeof CreateAssetBody>;
type ListQuery = { status?: AssetStatus; after?: string; limit: number };

/**
 * The four operations of one kind, each answering the body its route declares; registered per kind
 * below, where each route's types are known.
 */
function assetOps<K extends UserAssetKind>(kind: K) {
  const prefix = kind === 'environment' ? 'env' : 'obj';
  return {
    create(c: Context<AppEnv>, body: CreateBody) {
      const { store, ids } = c.get('deps');
      const { account } = c.get('auth');
      const now = c.get('now');
      const asset: UserAssetRecord = {
        id: ids.next(prefix, account.id, now),
        accountId: account.id,
        kind,
        name: body.name,
        status: 'validating',
        createdAt: toTimestamp(now),
        description: body.description ?? null,
        metadata: body.metadata ?? {},
        readyAt: toTimestamp(now + VALIDATION_MS),
        outcome: body.options?.emulator?.reject ? 'rejected' : 'validated',
      };
      store.tx(() => store.userAssets.insert(asset));
      c.set('resourceId', asset.id);
      return toUserAsset(asset, kind);
    },
    get: (c: Context<AppEnv>) => toUserAsset(find(c, kind, idOf(c, kind)), kind),
    list(c: Context<AppEnv>, { status, after, limit }: ListQuery) {
      const { store } = c.get('deps');
      const accountId = c.get('auth').account.id;
      checkCursor(after, (id) => store.userAssets.owns(accountId, kind, id), `an ${kind}`);
      const statuses = status && storedStatuses(status);
      const now = toTimestamp(c.get('now'));
      const page = store.userAssets.list(accountId, kind, { statuses, now, after, limit });
      const items = page.data.map((a) => toUserAsset(assetAt(a, now), kind));
      return listPage(items, page.hasMore, kind, (a) => a.id);
    },
    remove(c: Context<AppEnv>) {
      const id = idOf(c, kind);
      find(c, kind, id);
      c.get('deps').store.userAssets.remove(c.get('auth').account.id, id);
      return { id, object: kind, deleted: true };
    },
  };
}

/** Inferred operations only: registered when not `--strict`. */
export function registerAssets(app: OpenAPIHono<AppEnv>): void {
  const env = assetOps('environment');
  app.openapi(environmentRoutes.create, (c) => c.json(env.create(c, c.req.valid('json')), 201));
  app.openapi(environmentRoutes.get, (c) => c.json(env.get(c), 200));
  app.openapi(environmentRoutes.list, (c) => c.json(env.list(c, c.req.valid('query')), 200));
  app.openapi(environmentRoutes.remove, (c) => c.json(env.remove(c), 200));
  const obj = assetOps('object');
  app.openapi(objectRoutes.create, (c) => c.json(obj.create(c, c.req.valid('json')), 201));
  app.openapi(objectRoutes.get, (c) => c.json(obj.get(c), 200));
  app.openapi(objectRoutes.list, (c) => c.json(obj.list(c, c.req.valid('query')), 200));
  app.openapi(objectRoutes.remove, (c) => c.json(obj.remove(c), 200));
}
