import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import {
  cancelEvaluationRoute,
  createEvaluationRoute,
  getEvaluationRoute,
  listEvaluationsRoute,
  resumeEvaluationRoute,
} from '../contract/evaluations.js';
import { type OutcomeEntry, parseEvaluationOptions } from '../domain/evaluation-plan.js';
import { toEvaluation } from '../domain/evaluation-view.js';
import { listPage } from '../domain/paging.js';
import type { EvaluationRecord } from '../domain/records.js';
import { assertResumable } from '../domain/resume.js';
import { notFound } from '../errors.js';
import {
  createEvaluation,
  deriveState,
  requestCancel,
  startAttempt,
} from '../runtime/evaluation-runtime.js';
import { evaluationEvent, recordEvents } from '../runtime/event-log.js';
import { assertConcurrency } from '../runtime/limits.js';
import { baseUrl } from './base-url.js';
import { checkCursor } from './cursor.js';

type Ctx = Context<AppEnv>;

/** The Evaluation as of the request's now. */
export function view(c: Ctx, record: EvaluationRecord) {
  return toEvaluation({ ...record, state: deriveState(record.state, c.get('now')) }, baseUrl(c));
}

export function findRun(c: Ctx, runId: string): EvaluationRecord {
  const found = c.get('deps').store.evaluations.get(c.get('auth').account.id, runId);
  if (!found) throw notFound('evaluation', runId, 'run_id');
  return found;
}

/** `inferred: false` (--strict) registers only the documented resume. */
export function registerEvaluations(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  app.openapi(resumeEvaluationRoute, (c) => {
    const { store } = c.get('deps');
    const { run_id } = c.req.valid('param');
    const record = store.tx(() => {
      const found = findRun(c, run_id);
      assertResumable(found.state);
      const left = found.state.status;
      // Section 3.1: "the run is executed again from its original request", as a new attempt.
      const attempt = (found.state.run?.attempt ?? 1) + 1;
      startAttempt(
        c.get('deps'),
        c.get('auth').account,
        found,
        attempt,
        found.state.plan,
        c.get('now'),
        c.get('version'),
      );
      store.evaluations.saveState(found);
      // The API's own transitions are events at the request's instant, like the clock's.
      recordEvents(c.get('deps'), [evaluationEvent(found, c.get('now'), left, found.state)]);
      assertConcurrency(c.get('deps'), c.get('auth').account, found.id, c.get('now'));
      return found;
    });
    return c.json(view(c, record), 202);
  });

  if (!inferred) return;

  app.openapi(createEvaluationRoute, (c) => {
    const { store, ids } = c.get('deps');
    const { account } = c.get('auth');
    const body = c.req.valid('json');
    const options = body.options ?? {};
    const plan =
      parseEvaluationOptions(options).emulator?.outcomes ??
      planByRule(c, body.spec.name, body.label);
    const record = store.tx(() => {
      const created = createEvaluation(c.get('deps'), account, {
        id: ids.next('eval', account.id, c.get('now')),
        request: {
          spec: body.spec,
          options,
          label: body.label ?? null,
          webhook_metadata: body.webhook_metadata ?? null,
        },
        plan,
        now: c.get('now'),
        serviceVersion: c.get('version'),
      });
      recordEvents(c.get('deps'), [evaluationEvent(created, c.get('now'), null, created.state)]);
      assertConcurrency(c.get('deps'), account, created.id, c.get('now'));
      return created;
    });
    return c.json(view(c, record), 201);
  });

  app.openapi(getEvaluationRoute, (c) =>
    c.json(view(c, findRun(c, c.req.valid('param').run_id)), 200),
  );

  app.openapi(listEvaluationsRoute, (c) => {
    const { status, after, limit } = c.req.valid('query');
    const { store } = c.get('deps');
    const accountId = c.get('auth').account.id;
    checkCursor(after, (id) => store.evaluations.owns(accountId, id), 'an evaluation');
    const page = store.evaluations.list(accountId, { status, after, limit });
    const items = page.data.map((r) => view(c, r));
    return c.json(
      listPage(items, page.hasMore, 'evaluation', (e) => e.id),
      200,
    );
  });

  app.openapi(cancelEvaluationRoute, (c) => {
    const { store } = c.get('deps');
    const record = store.tx(() => {
      const found = findRun(c, c.req.valid('param').run_id);
      const left = requestCancel(c.get('deps'), found, c.get('now'));
      store.evaluations.saveState(found);
      if (left !== null)
        recordEvents(c.get('deps'), [evaluationEvent(found, c.get('now'), left, found.state)]);
      return found;
    });
    return c.json(view(c, record), 202);
  });
}

/** A scenario's outcome rule matching the spec name or label (DESIGN.md section 4). */
function planByRule(
  c: Ctx,
  specName: string,
  label: string | null | undefined,
): OutcomeEntry[] | undefined {
  const rules = c.get('deps').scenarios.loaded.outcome_rules ?? [];
  return rules.find(
    (r) =>
      (r.match.spec_name === undefined || r.match.spec_name === specName) &&
      (r.match.label === undefined || r.match.label === label),
  )?.outcomes;
}
