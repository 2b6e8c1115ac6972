import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/env.js';
import type { Kinds } from '../../engine/kind-registry.js';
import { getStatusRoute, OTHER_AREAS, type ServiceStatus } from './contract.js';

/**
 * Inferred only, and keyless (`security: []`), though faults still apply. It lists the areas the
 * app serves (`served`, its OpenAPI tags, filled once every route is registered), in the API
 * document's order (DESIGN.md section 7).
 */
export function registerStatus(
  app: OpenAPIHono<AppEnv>,
  kinds: Kinds,
  served: ReadonlySet<string>,
): void {
  const areas = [...kinds.list.map(({ kind }) => kind.tag), ...OTHER_AREAS.map((a) => a.name)];
  let body: z.infer<typeof ServiceStatus> | undefined;
  app.openapi(getStatusRoute, (c) => {
    body ??= {
      object: 'status' as const,
      status: 'operational' as const,
      components: areas
        .filter((name) => served.has(name))
        .map((name) => ({ name, status: 'operational' as const })),
    };
    return c.json(body, 200);
  });
}
