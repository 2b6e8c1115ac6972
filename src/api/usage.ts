import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getUsageRoute } from '../contract/usage.js';
import { deriveState } from '../domain/run-state.js';
import { summarizeUsage } from '../domain/usage.js';

/** Inferred only: not registered under --strict. */
export function registerUsage(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getUsageRoute, (c) => {
    const { store } = c.get('deps');
    const { account } = c.get('auth');
    // Each run as GET /v1/evaluations/{id} shows it now, so the counts agree with the reads.
    const runs = store.evaluations.allOf(account.id).map((r) => deriveState(r.state, c.get('now')));
    return c.json(summarizeUsage(store.accounts.balance(account.id), runs), 200);
  });
}
