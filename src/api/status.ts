import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getStatusRoute, STATUS_COMPONENTS } from '../contract/status.js';

/**
 * Inferred only. Needs no key: its route says `security: []`, so the pipeline does not
 * authenticate it; X-Emulator-Fault and fault rules still apply.
 * `served` names the areas (OpenAPI tags) the app serves, filled once every route is
 * registered: the status lists those parts (DESIGN.md section 7), in the API document's order.
 */
export function registerStatus(app: OpenAPIHono<AppEnv>, served: ReadonlySet<string>): void {
  let body: unknown;
  app.openapi(getStatusRoute, (c) => {
    body ??= {
      object: 'status' as const,
      status: 'operational' as const,
      components: STATUS_COMPONENTS.filter((name) => served.has(name)).map((name) => ({
        name,
        status: 'operational' as const,
      })),
    };
    return c.json(body as never, 200);
  });
}
