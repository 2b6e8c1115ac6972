import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getStatusRoute, STATUS_COMPONENTS } from '../contract/status.js';

const STATUS = {
  object: 'status' as const,
  status: 'operational' as const,
  components: STATUS_COMPONENTS.map((name) => ({ name, status: 'operational' as const })),
};

/**
 * Inferred only. Registered before the /v1 authentication layer: a handler that answers ends
 * the chain there, so this route needs no key and every other route pays nothing for it.
 * X-Emulator-Fault and fault rules still apply (the request context runs them first).
 */
export function registerStatus(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getStatusRoute, (c) => c.json(STATUS, 200));
}
