import type { RegisteredKind } from '../../engine/run-kind.js';
import { REGISTERED_KINDS } from '../../kinds/index.js';
import type { KindSeeders } from './control-types.js';

type Post = (collection: string, accountId: string, body: unknown) => Promise<unknown>;

/** One method per kind that seeds in its own terms, named as its control operation. */
export function kindSeeders(post: Post): KindSeeders<[accountId: string]> {
  const methods: Record<string, unknown> = {};
  for (const { kind, seed } of REGISTERED_KINDS as readonly RegisteredKind[])
    if (seed)
      methods[seed.operationId] = (accountId: string, body?: unknown) =>
        post(kind.collection, accountId, body);
  return methods as KindSeeders<[accountId: string]>;
}

/** The same methods bound to one account. */
export function boundSeeders(all: KindSeeders<[accountId: string]>, id: string): KindSeeders<[]> {
  const methods = all as unknown as Record<string, (id: string, body?: unknown) => unknown>;
  const names = (REGISTERED_KINDS as readonly RegisteredKind[]).flatMap(({ seed }) =>
    seed ? [seed.operationId] : [],
  );
  return Object.fromEntries(
    names.map((name) => [name, (body?: unknown) => methods[name]!(id, body)]),
  ) as unknown as KindSeeders<[]>;
}
