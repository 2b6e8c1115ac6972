/** GET /v1/operations/{operation_id} (inferred): any run by its id, its kind from the prefix. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { baseUrl } from '../../core/base-url.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import { assertAccess } from '../../core/scopes.js';
import type { Kinds } from '../../engine/kind-registry.js';
import type { RunKind } from '../../engine/run-kind.js';
import { deriveState } from '../../engine/timeline/state.js';
import { forKinds } from '../for-kinds.js';
import { operationContract } from './contract.js';

type Ctx = Context<AppEnv>;

/** A run of any kind as GET /v1/<kind>/{id} derives it at the request's now. */
function runOperation(c: Ctx, kind: RunKind, id: string) {
  // The kind's own read guards: the route cannot name one scope for every kind.
  const { key, account } = c.get('auth');
  assertAccess(key, account, { scope: `${kind.scope}:read`, feature: kind.feature });
  const record = c.get('deps').store.runs.get(c.get('auth').account.id, id);
  if (!record || record.kind !== kind.name) throw notFound('operation', id, 'operation_id');
  const state = deriveState(record.state, c.get('now'), kind.stepNoun);
  return {
    id,
    object: 'operation' as const,
    kind: kind.name,
    status: state.status,
    progress: state.progress,
    links: { self: `${baseUrl(c)}/v1/${kind.collection}/${id}` },
  };
}

const contract = forKinds((kinds) => operationContract(kinds.list.map((r) => r.kind)));

export function registerOperations(app: OpenAPIHono<AppEnv>, kinds: Kinds): void {
  const { getOperationRoute } = contract(kinds);
  app.openapi(getOperationRoute, (c) => {
    const id = c.req.valid('param').operation_id;
    const kind = kinds.ofId(id);
    if (!kind) throw notFound('operation', id, 'operation_id');
    return c.json(runOperation(c, kind, id), 200);
  });
}
