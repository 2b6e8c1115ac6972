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
import { deriveState } from '../domain/run-state.js';
import { evaluationKind } from '../kinds/index.js';
import {
  type Caller,
  cancelRun,
  createRunCommand,
  findRun as findRunOf,
  resumeRun,
} from '../runtime/run-commands.js';
import { baseUrl } from './base-url.js';
import { checkCursor } from './cursor.js';

type Ctx = Context<AppEnv>;

/** The Evaluation as of the request's now. */
export function view(c: Ctx, record: EvaluationRecord) {
  return toEvaluation({ ...record, state: deriveState(record.state, c.get('now')) }, baseUrl(c));
}

/** The request as the run engine's caller. */
function caller(c: Ctx): Caller {
  return {
    deps: c.get('deps'),
    account: c.get('auth').account,
    now: c.get('now'),
    version: c.get('version'),
  };
}

export function findRun(c: Ctx, runId: string): EvaluationRecord {
  return findRunOf(caller(c), evaluationKind, runId);
}

/** `inferred: false` (--strict) registers only the documented resume. */
export function registerEvaluations(app: OpenAPIHono<AppEnv>, inferred: boolean): void {
  app.openapi(resumeEvaluationRoute, (c) => {
    const record = resumeRun(caller(c), evaluationKind, c.req.valid('param').run_id);
    return c.json(view(c, record), 202);
  });

  if (!inferred) return;

  app.openapi(createEvaluationRoute, (c) => {
    const { ids } = c.get('deps');
    const { account } = c.get('auth');
    const body = c.req.valid('json');
    const options = body.options ?? {};
    const plan =
      parseEvaluationOptions(options).emulator?.outcomes ??
      planByRule(c, body.spec.name, body.label);
    const record = createRunCommand(caller(c), evaluationKind, {
      id: ids.next('eval', account.id, c.get('now')),
      request: {
        spec: body.spec,
        options,
        label: body.label ?? null,
        webhook_metadata: body.webhook_metadata ?? null,
      },
      plan,
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
    const record = cancelRun(caller(c), evaluationKind, c.req.valid('param').run_id);
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
