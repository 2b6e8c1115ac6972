import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getUsageRoute } from '../contract/usage.js';
import { deriveState } from '../domain/run-state.js';
import { summarizeUsage } from '../domain/usage.js';
import { REGISTERED_KINDS, RUN_KINDS } from '../kinds/index.js';

const COLLECTIONS = REGISTERED_KINDS.map(({ kind }) => kind.collection);

/** Inferred only: not registered under --strict. */
export function registerUsage(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getUsageRoute, (c) => {
    const { store } = c.get('deps');
    const { account } = c.get('auth');
    // Each run as GET /v1/<kind>/{id} shows it now, so the counts agree with the reads.
    const runs = store.runs.allOf(account.id).flatMap((r) => {
      const kind = RUN_KINDS[r.kind];
      return kind
        ? [
            {
              collection: kind.collection,
              state: deriveState(r.state, c.get('now'), kind.stepNoun),
            },
          ]
        : [];
    });
    return c.json(summarizeUsage(store.accounts.balance(account.id), COLLECTIONS, runs), 200);
  });
}
