import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { getTwinRoute, listTwinFilesRoute, listTwinsRoute } from '../contract/twins.js';
import { listPage } from '../domain/paging.js';
import type { TwinRecord } from '../domain/records.js';
import { apiError, MESSAGES, notFound } from '../errors.js';
import { toTimestamp } from '../runtime/clock.js';
import { twinTimes } from '../runtime/twin-runtime.js';
import { checkCursor } from './cursor.js';

type Ctx = Context<AppEnv>;

/**
 * The Twin (inferred; DESIGN.md section 3) of a twin the request context has settled to its
 * account's now. `file_count` is what the file listing would list, so null until it can.
 */
function view(c: Ctx, twin: TwinRecord) {
  const { startedAt, endedAt } = twinTimes(twin);
  return {
    id: twin.id,
    object: 'twin' as const,
    status: twin.status,
    file_count: twin.status === 'succeeded' ? c.get('deps').store.twinFiles.count(twin.id) : null,
    created_at: twin.createdAt,
    started_at: startedAt === null ? null : toTimestamp(startedAt),
    completed_at: endedAt === null ? null : toTimestamp(endedAt),
  };
}

function findTwin(c: Ctx, twinId: string): TwinRecord {
  const twin = c.get('deps').store.twins.get(c.get('auth').account.id, twinId);
  if (!twin) throw notFound('twin', twinId, 'twin_id');
  return twin;
}

/** `inferred: false` (--strict) registers only the documented file listing. */
export function registerTwins(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  app.openapi(listTwinFilesRoute, (c) => {
    const { store } = c.get('deps');
    const { twin_id } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    const twin = findTwin(c, twin_id);
    if (twin.status !== 'succeeded') {
      throw apiError('twin_not_ready', {
        message: MESSAGES.filesNotReady('twin', twin.status),
      });
    }
    const page = store.twinFiles.page(twin_id, after ?? '', limit);
    return c.json(
      listPage(page.data, page.hasMore, 'twin_file', (f) => f.path),
      200,
    );
  });

  if (!inferred) return;

  app.openapi(getTwinRoute, (c) => c.json(view(c, findTwin(c, c.req.valid('param').twin_id)), 200));

  app.openapi(listTwinsRoute, (c) => {
    const { status, after, limit } = c.req.valid('query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    checkCursor(after, (id) => store.twins.owns(accountId, id), 'a twin');
    const page = store.twins.list(accountId, { status, after, limit });
    return c.json(
      listPage(
        page.data.map((t) => view(c, t)),
        page.hasMore,
        'twin',
        (t) => t.id,
      ),
      200,
    );
  });
}
