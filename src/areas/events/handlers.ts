import type { OpenAPIHono } from '@hono/zod-openapi';
import { baseUrl } from '../../core/base-url.js';
import { checkCursor } from '../../core/cursor.js';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import type { Kinds } from '../../engine/kind-registry.js';
import { toEvent } from '../../engine/timeline/event-view.js';
import { forKinds } from '../for-kinds.js';
import { eventContract } from './contract.js';

const contract = forKinds((kinds) =>
  eventContract(
    kinds.list.map(({ kind, routes }) => ({ name: kind.name, resource: routes.resource })),
  ),
);

/** The event log (inferred, DESIGN.md section 3), newest first; nothing under --strict. */
export function registerEvents(app: OpenAPIHono<AppEnv>, kinds: Kinds, inferred: boolean): void {
  if (!inferred) return;
  const { listEventsRoute, getEventRoute } = contract(kinds);

  app.openapi(listEventsRoute, (c) => {
    const { after, limit, type, resource } = c.req.valid('query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    checkCursor(after, (id) => store.events.exists(id, accountId), 'an event');
    const page = store.events.list(accountId, { after, limit, type, resource });
    const base = baseUrl(c);
    const data = page.data.map((e) => toEvent(e, base, kinds.byName));
    const body = listPage(data, page.hasMore, 'event', (e) => e.id);
    return c.json(body, 200);
  });

  app.openapi(getEventRoute, (c) => {
    const { event_id } = c.req.valid('param');
    const found = c.get('deps').store.events.get(c.get('auth').account.id, event_id);
    if (!found) throw notFound('event', event_id, 'event_id');
    return c.json(toEvent(found, baseUrl(c), kinds.byName), 200);
  });
}
