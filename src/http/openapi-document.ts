import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { DEFAULT_VERSION } from '../contract/common.js';

type Doc = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

/** The names of the component schemas a value refers to, transitively. */
function referencedSchemas(
  value: unknown,
  schemas: Record<string, unknown>,
  seen = new Set<string>(),
) {
  if (Array.isArray(value)) for (const v of value) referencedSchemas(v, schemas, seen);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const name =
        k === '$ref' && typeof v === 'string'
          ? /^#\/components\/schemas\/(.+)$/.exec(v)?.[1]
          : undefined;
      if (name && !seen.has(name)) {
        seen.add(name);
        referencedSchemas(schemas[name], schemas, seen);
      } else referencedSchemas(v, schemas, seen);
    }
  }
  return seen;
}

/**
 * Mounting the control app merges its routes into this app's registry; the product document
 * keeps only product paths and the schemas they reach. The control API has its own document.
 */
function withoutControl(doc: Doc): Doc {
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {}).filter(([path]) => !path.startsWith('/_control')),
  );
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const used = referencedSchemas(paths, schemas);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...doc, paths, components: { ...doc.components, schemas: kept } } as Doc;
}

/** Every POST honours `Idempotency-Key` (DESIGN.md section 3); the document says so. */
function withIdempotencyKey(doc: Doc): void {
  for (const item of Object.values(doc.paths ?? {})) {
    const post = (item as { post?: { parameters?: unknown[] } }).post;
    if (!post) continue;
    post.parameters = [
      ...(post.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The same key with the same request within 24 hours replays the first successful response (header `Idempotent-Replayed: true`); with a different request: 409 `idempotency_key_reused`.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
        'x-inferred': true,
      },
    ];
  }
}

/**
 * The product API's OpenAPI 3.1 document, generated from the registered routes (the contract is
 * the single source of truth). Parts the API document does not show carry `x-inferred: true`.
 * Built on each call: the app keeps the one it serves (`createApp`).
 */
export function productDocument(app: OpenAPIHono<AppEnv>): unknown {
  const generated = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Robot Policy Platform API (svc-emulator)',
      version: DEFAULT_VERSION,
      description:
        'The API as served by svc-emulator. Operations and fields marked `x-inferred: true` are not shown by the API document; the emulator infers them (its docs/inferred.md lists each choice).',
    },
    servers: [{ url: '/', description: 'This emulator' }],
  });
  const product = withoutControl(generated);
  product.components = {
    ...product.components,
    securitySchemes: {
      ApiKeyAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key starting with `svc_`.',
      },
    },
  };
  withIdempotencyKey(product);
  return product;
}
