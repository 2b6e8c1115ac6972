import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { swaggerUI } from '@hono/swagger-ui';
import type { Context, Env, Hono } from 'hono';

/** Swagger UI is served by this server (`swagger-ui-dist`), so the pages need no network. */
export const DOCS_ASSETS = '/docs/assets';

const ASSET_TYPES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/**
 * A Swagger UI page of `documentUrl`, served whatever `--strict` says (DESIGN.md section 6).
 * @example app.get('/docs', docsPage('svc-emulator API', '/openapi.json'))
 */
export function docsPage(title: string, documentUrl: string) {
  return swaggerUI({
    title,
    url: documentUrl,
    baseUrl: DOCS_ASSETS,
    // Swagger UI would send the document to an online validator for its badge.
    validatorUrl: 'none',
    persistAuthorization: true,
    displayRequestDuration: true,
  });
}

/** Serves the two Swagger UI files the pages ask for (`<baseUrl>/swagger-ui-dist/<file>`). */
export function registerDocsAssets<E extends Env>(app: Hono<E>): void {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  const asset = (c: Context<E>): Response | Promise<Response> => {
    const file = c.req.param('file') ?? '';
    const type = ASSET_TYPES[file];
    if (type === undefined) return c.notFound();
    const body = cache.get(file) ?? readFileSync(join(dir, file));
    cache.set(file, body);
    return c.body(new Uint8Array(body), 200, {
      'content-type': type,
      'cache-control': 'public, max-age=86400',
    });
  };
  app.get(`${DOCS_ASSETS}/swagger-ui-dist/:file`, asset);
}
