import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Env, Hono } from 'hono';

/** Swagger UI is served by this server, so the pages need no network. */
export const DOCS_ASSETS = '/docs/assets';

const ASSET_TYPES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/** `&`, `<`, `>`, `"` and `'` as HTML entities. */
function escapeHtml(text: string): string {
  const entities: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  };
  return text.replace(/[&<>"']/g, (ch) => entities[ch]!);
}

/**
 * A Swagger UI page of `documentUrl`, served whatever `--strict` says (DESIGN.md section 6).
 * Swagger UI would send the document to an online validator for its badge: `validatorUrl` none.
 * @example app.get('/docs', docsPage('svc-emulator API', '/openapi.json'))
 */
export function docsPage(title: string, documentUrl: string) {
  const options = {
    dom_id: '#swagger-ui',
    url: documentUrl,
    validatorUrl: 'none',
    persistAuthorization: true,
    displayRequestDuration: true,
  };
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui-dist/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_ASSETS}/swagger-ui-dist/swagger-ui-bundle.js"></script>
    <script>
      window.onload = () => {
        window.ui = SwaggerUIBundle(${JSON.stringify(options).replace(/</g, '\\u003c')});
      };
    </script>
  </body>
</html>
`;
  return (c: Context) => c.html(html);
}

/**
 * Where Swagger UI's two files are: `dist/swagger-ui/`, which `npm run build` copies from the
 * `swagger-ui-dist` package (a development dependency, so installing the emulator pulls in no
 * telemetry install script), found beside the library's modules and the bin; in a development
 * checkout, the package itself.
 */
function swaggerUiDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, '..', 'swagger-ui'), join(here, 'swagger-ui')])
    if (existsSync(join(dir, 'swagger-ui-bundle.js'))) return dir;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Serves the two Swagger UI files the pages ask for (`/docs/assets/swagger-ui-dist/<file>`). */
export function registerDocsAssets<E extends Env>(app: Hono<E>): void {
  let dir: string | undefined;
  const cache = new Map<string, Buffer>();
  const asset = (c: Context<E>): Response | Promise<Response> => {
    const file = c.req.param('file') ?? '';
    const type = ASSET_TYPES[file];
    if (type === undefined) return c.notFound();
    dir ??= swaggerUiDir();
    const body = cache.get(file) ?? readFileSync(join(dir, file));
    cache.set(file, body);
    return c.body(new Uint8Array(body), 200, {
      'content-type': type,
      'cache-control': 'public, max-age=86400',
    });
  };
  app.get(`${DOCS_ASSETS}/swagger-ui-dist/:file`, asset);
}
