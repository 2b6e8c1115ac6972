import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/env.js';
import type { Kinds } from '../../engine/kind-registry.js';
import { deriveState } from '../../engine/timeline/state.js';
import { forKinds } from '../for-kinds.js';
import { usageContract } from './contract.js';
import { summarizeUsage } from './usage.js';

const collectionsOf = (kinds: Kinds) => kinds.list.map(({ kind }) => kind.collection);
const contract = forKinds((kinds) => usageContract(collectionsOf(kinds)));

/** Inferred only: not registered under --strict. */
export function registerUsage(app: OpenAPIHono<AppEnv>, kinds: Kinds): void {
  const collections = collectionsOf(kinds);
  app.openapi(contract(kinds).getUsageRoute, (c) => {
    const { store } = c.get('deps');
    const { account } = c.get('auth');
    // Each run as GET /v1/<kind>/{id} shows it now, so the counts agree with the reads.
    const runs = store.runs.allOf(account.id).flatMap((r) => {
      const kind = kinds.byName[r.kind];
      if (!kind) return [];
      return [
        { collection: kind.collection, state: deriveState(r.state, c.get('now'), kind.stepNoun) },
      ];
    });
    const usage = summarizeUsage(store.accounts.balance(account.id), collections, runs);
    return c.json(usage, 200);
  });
}
