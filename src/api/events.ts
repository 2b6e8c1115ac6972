import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getEventRoute, listEventsRoute } from '../contract/events.js';
import { toEvent } from '../domain/event-view.js';
import { listPage } from '../domain/paging.js';
import { notFound } from '../errors.js';
import { RUN_KINDS } from '../kinds/index.js';
import { baseUrl } from './base-url.js';
import { checkCursor } from './cursor.js';

/**
 * The event log (inferred, DESIGN.md section 3): the caller's account's events, newest first.
 * `inferred: false` (--strict) registers nothing.
 */
export function registerEvents(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  if (!inferred) return;

  app.openapi(listEventsRoute, (c) => {
    const { after, limit, type, resource } = c.req.valid('query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    checkCursor(after, (id) => store.events.exists(id, accountId), 'an event');
    const page = store.events.list(accountId, { after, limit, type, resource });
    const base = baseUrl(c);
    return c.json(
      listPage(
        page.data.map((e) => toEvent(e, base, RUN_KINDS)),
        page.hasMore,
        'event',
        (e) => e.id,
      ),
      200,
    );
  });

  app.openapi(getEventRoute, (c) => {
    const { event_id } = c.req.valid('param');
    const found = c.get('deps').store.events.get(c.get('auth').account.id, event_id);
    if (!found) throw notFound('event', event_id, 'event_id');
    return c.json(toEvent(found, baseUrl(c), RUN_KINDS), 200);
  });
}
