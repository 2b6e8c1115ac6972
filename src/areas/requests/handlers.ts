import type { OpenAPIHono } from '@hono/zod-openapi';
import { toTimestamp } from '../../core/clock.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import { listPage } from '../../core/paging.js';
import { listRequestsRoute } from './contract.js';
import type { JournalEntry } from './journal.js';

const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000;

const view = (e: JournalEntry) => ({
  id: e.request_id,
  method: e.method,
  path: e.path,
  route: e.route,
  status: e.status,
  error_code: e.code,
  key_id: e.key_id,
  idempotent_replayed: e.idempotent_replayed,
  created_at: toTimestamp(e.at_ms),
});

/** The account's calls of the last 30 virtual days from the journal, newest first, paged by id. */
export function registerRequests(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  if (!inferred) return;
  app.openapi(listRequestsRoute, (c) => {
    const { after, limit } = c.req.valid('query');
    const filter = { account: c.get('auth').account.id, sinceMs: c.get('now') - THIRTY_DAYS_MS };
    const page = c.get('deps').journal.newestPage(filter, after, limit);
    if (!page.found) throw invalidParam('after', MESSAGES.noJournalEntry(String(after)));
    const body = listPage(page.data.map(view), page.hasMore, 'request', (r) => r.id);
    return c.json(body, 200);
  });
}
