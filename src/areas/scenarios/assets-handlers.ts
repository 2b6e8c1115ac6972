import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { checkCursor } from '../../core/cursor.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import { toTimestamp } from '../../core/timestamp.js';
import { assetAt, storedStatuses, toUserAsset, VALIDATION_MS } from './asset-view.js';
import { environmentRoutes, objectRoutes } from './assets-contract.js';
import type { UserAssetKind, UserAssetRecord } from './records.js';

type Routes = typeof environmentRoutes | typeof objectRoutes;

/** One of the caller's assets of this kind, as of now; another account's id answers 404. */
function find(c: Context<AppEnv>, kind: UserAssetKind, id: string): UserAssetRecord {
  const asset = c.get('deps').store.userAssets.get(c.get('auth').account.id, id);
  if (!asset || asset.kind !== kind) throw notFound(kind, id, `${kind}_id`);
  return assetAt(asset, toTimestamp(c.get('now')));
}

function registerKind(app: OpenAPIHono<AppEnv>, kind: UserAssetKind, routes: Routes): void {
  const prefix = kind === 'environment' ? 'env' : 'obj';
  const idOf = (c: Context<AppEnv>) => (c.req.param() as Record<string, string>)[`${kind}_id`]!;

  app.openapi(routes.create as typeof environmentRoutes.create, (c) => {
    const { store, ids } = c.get('deps');
    const { account } = c.get('auth');
    const body = c.req.valid('json');
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
    return c.json(toUserAsset(asset) as never, 201);
  });

  app.openapi(routes.get as typeof environmentRoutes.get, (c) =>
    c.json(toUserAsset(find(c, kind, idOf(c))) as never, 200),
  );

  app.openapi(routes.list as typeof environmentRoutes.list, (c) => {
    const { status, after, limit } = c.req.valid('query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    checkCursor(after, (id) => store.userAssets.owns(accountId, kind, id), `an ${kind}`);
    const statuses = status && storedStatuses(status);
    const now = toTimestamp(c.get('now'));
    const page = store.userAssets.list(accountId, kind, { statuses, now, after, limit });
    const items = page.data.map((a) => toUserAsset(assetAt(a, now)));
    return c.json(listPage(items, page.hasMore, kind, (a) => a.id) as never, 200);
  });

  app.openapi(routes.remove as typeof environmentRoutes.remove, (c) => {
    const id = idOf(c);
    find(c, kind, id);
    c.get('deps').store.userAssets.remove(c.get('auth').account.id, id);
    return c.json({ id, object: kind, deleted: true } as never, 200);
  });
}

/** Inferred operations only: registered when not `--strict`. */
export function registerAssets(app: OpenAPIHono<AppEnv>): void {
  registerKind(app, 'environment', environmentRoutes);
  registerKind(app, 'object', objectRoutes);
}
