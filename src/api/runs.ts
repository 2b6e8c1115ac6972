/**
 * The routes of every run kind, written once (DESIGN.md section 7, "The run engine"): each
 * handler parses, calls one engine command or read, and shapes the answer with the kind's body.
 * A kind brings its routes and its definition (`src/kinds/<kind>/`); nothing here names a kind.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import type { RunRouteName } from '../contract/run-routes.js';
import type { RegisteredKind } from '../domain/run-kind.js';
import {
  archiveHandler,
  cancelHandler,
  createHandler,
  filesHandler,
  getHandler,
  kindRoutes,
  listHandler,
  logsHandler,
  type RunHandler,
  readHandler,
  resumeHandler,
} from './run-handlers.js';

/** Which of a kind's routes to serve: every one, or only the documented ones (`--strict`). */
export type RunRouteSet = 'all' | 'documented';

/**
 * Registers the routes of a kind. `documented` serves only the routes the kind lists as
 * documented (API document sections 4.1, 4.4 to 4.6); a kind with none serves nothing under
 * `--strict`. A kind's own reads (`reads`) are inferred routes.
 * @example registerRunKind(app, registered, 'all')
 */
export function registerRunKind(
  app: OpenAPIHono<AppEnv>,
  registered: RegisteredKind,
  set: RunRouteSet,
): void {
  const { routes } = registered;
  const k = kindRoutes(registered);
  const on = (name: RunRouteName, handler: RunHandler) => {
    const route = routes[name];
    if (route && (set === 'all' || routes.documented.includes(name)))
      app.openapi(route, handler as never);
  };
  on('resume', resumeHandler(k));
  on('logs', logsHandler(k));
  on('files', filesHandler(k));
  on('create', createHandler(k));
  on('get', getHandler(k));
  on('list', listHandler(k));
  on('cancel', cancelHandler(k));
  on('archive', archiveHandler(k));
  if (set === 'all')
    for (const { route, read } of registered.reads ?? []) app.openapi(route, readHandler(k, read));
}
