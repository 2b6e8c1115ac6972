import type { RegisteredKind } from '../../engine/run-kind.js';
import { REGISTERED_KINDS } from '../../kinds/index.js';
import type { KindSeeders } from './control-types.js';

type Post = (collection: string, accountId: string, body: unknown) => Promise<unknown>;

/** The kinds that seed in their own terms, as the registry lists them at run time. */
const SEEDING = (REGISTERED_KINDS as readonly RegisteredKind[]).flatMap(({ kind, seed }) =>
  seed ? [{ collection: kind.collection, operation: seed.operationId }] : [],
);

/**
 * Methods built from the registry at run time, as the type the same registry gives them
 * (`KindSeeders`, control-types.ts): one method per kind seed, named as its operation. The one
 * place the harness takes its methods at their word.
 */
function asSeeders<A extends unknown[]>(methods: Record<string, unknown>): KindSeeders<A> {
  return methods as KindSeeders<A>;
}

/** One method per kind that seeds in its own terms, named as its control operation. */
export function kindSeeders(post: Post): KindSeeders<[accountId: string]> {
  const methods: Record<string, unknown> = {};
  for (const { collection, operation } of SEEDING)
    methods[operation] = (accountId: string, body?: unknown) => post(collection, accountId, body);
  return asSeeders(methods);
}

/** The same methods bound to one account. */
export function boundSeeders(all: KindSeeders<[accountId: string]>, id: string): KindSeeders<[]> {
  const unbound: Record<string, unknown> = all;
  const methods: Record<string, unknown> = {};
  for (const { operation } of SEEDING) {
    const method = unbound[operation];
    if (typeof method === 'function') methods[operation] = (body?: unknown) => method(id, body);
  }
  return asSeeders(methods);
}
