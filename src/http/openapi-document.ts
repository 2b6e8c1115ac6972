import type { OpenAPIHono } from '@hono/zod-openapi';
import { DEFAULT_VERSION } from '../contract/common.js';
import type { AppEnv } from './env.js';

const documents = new WeakMap<object, unknown>();

/**
 * The product API's OpenAPI 3.1 document, generated from the registered routes (the contract is
 * the single source of truth). Parts the API document does not show carry `x-inferred: true`.
 * Built once per app.
 */
export function productDocument(app: OpenAPIHono<AppEnv>): unknown {
  let doc = documents.get(app);
  if (!doc) {
    const generated = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Robot Policy Platform API (svc-emulator)',
        version: DEFAULT_VERSION,
        description:
          'The API as served by svc-emulator. Operations and fields marked `x-inferred: true` are not shown by the API document; the emulator infers them (see DESIGN.md section 3).',
      },
      servers: [{ url: '/', description: 'This emulator' }],
    });
    generated.components = {
      ...generated.components,
      securitySchemes: {
        ApiKeyAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key starting with `svc_`.',
        },
      },
    };
    doc = generated;
    documents.set(app, doc);
  }
  return doc;
}
