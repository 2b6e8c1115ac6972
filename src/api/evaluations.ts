import type { OpenAPIHono } from '@hono/zod-openapi';
import { resumeEvaluationRoute } from '../contract/evaluations.js';
import { toEvaluation } from '../domain/evaluation-view.js';
import { resumedState } from '../domain/resume.js';
import { notFound } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import { guardRoute } from '../http/guard-route.js';
import { baseUrl } from './base-url.js';

export function registerEvaluations(app: OpenAPIHono<AppEnv>): void {
  app.openapi(guardRoute(resumeEvaluationRoute), (c) => {
    const { store } = c.var.deps;
    const { account } = c.var.auth;
    const { run_id } = c.req.valid('param');
    const record = store.tx(() => {
      const found = store.evaluations.get(account.id, run_id);
      if (!found) throw notFound('evaluation', run_id, 'run_id');
      const resumed = { ...found, state: resumedState(found.state, c.var.version) };
      store.evaluations.saveState(resumed);
      // A new attempt starts with an empty log and no files.
      store.runLogs.replace(run_id, []);
      store.runFiles.replace(run_id, []);
      return resumed;
    });
    return c.json(toEvaluation(record, baseUrl(c)), 202);
  });
}
