/**
 * `/_control/ui`, the inspector (DESIGN.md section 8, issue 30): a page and a few hand-written
 * browser modules in `src/tools/inspector/ui/`, served as files with no build step. The page is a view over
 * the control API: it holds no data, and every figure it shows or action it takes is a control
 * call. It needs no network (no CDN); `npm run build` copies the folder into `dist/tools/inspector/ui/`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../core/env.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The page may load only its own files and call only its own origin; no page may frame it (it
 * has buttons that change the world).
 */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

/**
 * The folder of the page's files: `src/tools/inspector/ui/` beside this module (sources, and the library
 * in `dist/tools/inspector/`), or `dist/tools/inspector/ui/` seen from the bundled bin (`dist/main.js`).
 */
function uiDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = [join(here, 'ui'), join(here, 'tools', 'inspector', 'ui')].find((d) =>
    existsSync(join(d, 'index.html')),
  );
  if (!found) throw new Error(`the inspector's files are missing beside ${here}`);
  return found;
}

/** Serves the page at `/_control/ui` and its files at `/_control/ui/<file>` (a fixed set). */
export function registerInspector(app: OpenAPIHono<AppEnv>): void {
  let files: Map<string, Buffer> | undefined;
  const load = () => {
    if (files) return files;
    const dir = uiDir();
    const names = readdirSync(dir).filter((name) => TYPES[extname(name)] !== undefined);
    files = new Map(names.map((name) => [name, readFileSync(join(dir, name))]));
    return files;
  };
  const serve = (c: Context<AppEnv>, name: string) => {
    const body = load().get(name);
    if (!body) return c.notFound();
    return c.body(new Uint8Array(body), 200, {
      ...PAGE_HEADERS,
      'Content-Type': TYPES[extname(name)]!,
    });
  };
  app.get('/ui', (c) => serve(c, 'index.html'));
  app.get('/ui/', (c) => c.redirect('/_control/ui', 301));
  app.get('/ui/:file', (c) => serve(c, c.req.param('file')));
}
