/** The control API's OpenAPI 3.1 document (`GET /_control/openapi.json`). */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ADVANCE_BODY_SCHEMA } from '../areas/accounts/control-clock.js';
import { CONTROL_TAGS } from '../core/control-routes.js';
import type { AppEnv } from '../core/env.js';
import { CONTACT, LICENSE } from './openapi-document.js';

type Operation = {
  operationId?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
};

/**
 * Generated from the control routes, plus the areas (tags), the `X-Control-Token` scheme (optional
 * in `security`, so Swagger UI shows Authorize), and the advance body as `oneOf`.
 */
export function controlDocument(app: OpenAPIHono<AppEnv>, version: string): unknown {
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'svc-emulator control API',
      version,
      description:
        'Not part of the product API. Seeds state, moves virtual clocks, resets the world, injects faults and reads the request journal. When the emulator runs with `--control-token`, every call needs the `X-Control-Token` header.',
      contact: CONTACT,
      license: LICENSE,
    },
    servers: [{ url: '/_control', description: 'This emulator' }],
    security: [{}, { ControlToken: [] }],
  });
  const used = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      for (const tag of op.tags ?? []) used.add(tag);
      const body = op.requestBody?.content?.['application/json'];
      if (op.operationId === 'advanceClock' && body) body.schema = ADVANCE_BODY_SCHEMA;
    }
  }
  doc.tags = CONTROL_TAGS.filter((t) => used.has(t.name)).map((t) => ({ ...t }));
  doc.components = {
    ...doc.components,
    securitySchemes: {
      ControlToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Control-Token',
        description:
          'The `--control-token` (`EMULATOR_CONTROL_TOKEN`) the emulator was started with; without one, no token is needed.',
      },
    },
  };
  return doc;
}
