import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { getSimRunLogsRoute, listSimRunFilesRoute } from '../contract/sim-runs.js';
import { listPage } from '../domain/paging.js';
import { apiError, MESSAGES, notFound } from '../errors.js';

/** DESIGN.md section 3: a sim run is an evaluation under its former name. */
export function registerSimRuns(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getSimRunLogsRoute, (c) => {
    const { store } = c.get('deps');
    const { run_id } = c.req.valid('param');
    const { limit } = c.req.valid('query');
    if (!store.evaluations.get(c.get('auth').account.id, run_id)) {
      throw notFound('sim run', run_id, 'run_id');
    }
    const lines = store.runLogs.tail(run_id, limit);
    return c.json({ id: run_id, object: 'sim_run_logs' as const, lines }, 200);
  });

  app.openapi(listSimRunFilesRoute, (c) => {
    const { store } = c.get('deps');
    const { run_id } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    const run = store.evaluations.get(c.get('auth').account.id, run_id);
    if (!run) throw notFound('sim run', run_id, 'run_id');
    if (run.state.status !== 'succeeded') {
      throw apiError('run_not_ready', {
        message: MESSAGES.filesNotReady('run', run.state.status),
      });
    }
    const page = store.runFiles.page(run_id, after ?? '', limit);
    return c.json(
      listPage(page.data, page.hasMore, 'sim_run_file', (f) => f.path),
      200,
    );
  });
}
