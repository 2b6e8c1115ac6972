/**
 * An account's runs of every kind, as the inspector shows them (issue 30): a page of them, and one
 * with its timeline on the virtual clock, log, files and archive. The account is settled to its
 * now first, as a product read would be.
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { accountOf } from '../../core/accounts/account-of.js';
import { baseUrl } from '../../core/base-url.js';
import { toTimestamp } from '../../core/clock.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { AccountParam, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES, notFound } from '../../core/errors.js';
import type { Account } from '../../core/records.js';
import { RUN_STATUSES } from '../contract/run-shapes.js';
import type { Deps } from '../deps.js';
import type { RunRecord } from '../records.js';
import { runFilePage, runLog } from '../run-outputs.js';
import { settleSliced } from '../sliced-settle.js';
import { deriveState } from '../timeline/state.js';
import { attemptTimeline } from '../timeline/timeline.js';
import { toRunBody } from '../timeline/view.js';
import { serveArchive } from './archive.js';

const RunSummary = z.object({
  id: z.string(),
  object: z.string().openapi({ description: 'The run kind.' }),
  status: z.string(),
  phase: z.string().nullable(),
  progress: z.number(),
  label: z.string().nullable(),
  created_at: Timestamp,
  next_transition_at: Timestamp.nullable().openapi({
    description: "When its next transition is due on the account's clock; null if none.",
  }),
});

export const listRunsRoute = route({
  method: 'get',
  path: '/accounts/{account_id}/runs',
  operationId: 'listAccountRuns',
  tags: ['Runs'],
  summary: "The account's runs of every kind, newest first, a page at a time",
  description:
    "A page of the account's runs of every kind (or of `kind`, with `status`), newest first, as of its clock's now, each with its next transition; `next_transition_at` is the account's earliest.",
  request: {
    params: AccountParam,
    query: z.object({
      kind: z.string().optional().openapi({ description: 'A run kind, e.g. `evaluation`.' }),
      status: z.enum(RUN_STATUSES).optional(),
      after: z.string().optional().openapi({ description: 'A run id: the page after it.' }),
      limit: z.coerce.number().int().min(1).max(1000).default(50),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        object: z.literal('list'),
        data: z.array(RunSummary),
        has_more: z.boolean(),
        next_transition_at: Timestamp.nullable(),
      }),
      'The runs.',
    ),
    ...errorResponses([400, 404]),
  },
});

const RunParam = z.object({
  run_id: z.string().openapi({ param: { name: 'run_id', in: 'path' } }),
});

export const getRunRoute = route({
  method: 'get',
  path: '/runs/{run_id}',
  operationId: 'getRunDetail',
  summary: 'A run of any kind with its timeline, log, files and archive link',
  description:
    "The run as its kind shows it (`run`), its current attempt's transitions on the account's clock (`timeline`, each `past` or still to come), the last 200 lines of its log, the first 100 of its files once it succeeded, and `archive_url` when it has an archive.",
  request: { params: RunParam },
  responses: {
    200: jsonResponse(
      z
        .object({
          account_id: z.string(),
          run: z.object({ id: z.string(), object: z.string() }).catchall(z.unknown()),
          attempt: z.number().int().nullable(),
          timeline: z.array(
            z.object({
              at: Timestamp,
              status: z.string(),
              phase: z.string().nullable().openapi({
                description: "The run's `phase` from then on: null once it succeeded.",
              }),
              past: z.boolean(),
            }),
          ),
          next_transition_at: Timestamp.nullable(),
          logs: z.array(z.string()),
          files: z.array(z.object({ path: z.string() }).catchall(z.unknown())).nullable(),
          files_has_more: z.boolean(),
          archive_url: z.string().nullable(),
        })
        .openapi('ControlRunDetail'),
      'The run.',
    ),
    ...errorResponses([404]),
  },
});

export const runArchiveRoute = route({
  method: 'get',
  path: '/runs/{run_id}/archive',
  operationId: 'downloadRunArchive',
  summary: "A succeeded run's archive, without its account's key",
  description:
    'The `.tar.gz` the product API serves for the run; 409 `run_not_ready` before it succeeded.',
  request: { params: RunParam },
  responses: {
    200: {
      description: 'The archive.',
      content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
    },
    ...errorResponses([404, 409]),
  },
});

const at = (ms: number | null) => (ms === null ? null : toTimestamp(ms));

/** The run of that id (any account's) with its account, settled to now; 404 naming `run_id`. */
async function settledRun(deps: Deps, runId: string) {
  const owner = deps.store.runs.ownerOf(runId);
  const account = owner && deps.store.accounts.get(owner);
  if (!account) throw notFound('run', runId, 'run_id');
  const now = await settled(deps, account);
  return { account, now, record: deps.store.runs.get(account.id, runId)! };
}

async function settled(deps: Deps, account: Account): Promise<number> {
  const now = deps.clocks.now(account);
  await settleSliced(deps, account, now);
  return now;
}

/** The run as its kind's `GET` shows it at `now`. */
function body(c: Context<AppEnv>, deps: Deps, record: RunRecord, now: number) {
  const kind = deps.kinds.byName[record.kind]!;
  return toRunBody(
    kind,
    { ...record, state: deriveState(record.state, now, kind.stepNoun) },
    baseUrl(c),
  );
}

export function registerRuns(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(listRunsRoute, async (c) => {
    const account = accountOf(deps, c.req.valid('param').account_id);
    const { kind, status, after, limit } = c.req.valid('query');
    if (kind !== undefined && !deps.kinds.byName[kind])
      throw invalidParam('kind', MESSAGES.unknownKind(kind, Object.keys(deps.kinds.byName)));
    if (after !== undefined && !deps.store.runs.get(account.id, after))
      throw invalidParam('after', MESSAGES.badCursor(after, 'a run'));
    const now = await settled(deps, account);
    const page = deps.store.runs.listAll(account.id, { kind, status, after, limit });
    const data = page.data.map((r) => {
      const b = body(c, deps, r, now);
      return {
        id: r.id,
        object: r.kind,
        status: b.status,
        phase: (b.phase as string | null | undefined) ?? null,
        progress: (b.progress as number | undefined) ?? 0,
        label: r.request.label ?? null,
        created_at: r.createdAt,
        next_transition_at: at(r.nextAt),
      };
    });
    const next = at(deps.store.runs.earliestDue(account.id));
    return c.json(
      { object: 'list' as const, data, has_more: page.hasMore, next_transition_at: next },
      200,
    );
  });

  app.openapi(getRunRoute, async (c) => {
    const { account, now, record } = await settledRun(deps, c.req.valid('param').run_id);
    const { state } = record;
    const succeeded = state.status === 'succeeded';
    const files = succeeded ? await runFilePage(deps, record, '', 100) : null;
    const archived = succeeded && state.download && !state.given_files && state.run;
    return c.json(
      {
        account_id: account.id,
        run: body(c, deps, record, now),
        attempt: state.run?.attempt ?? null,
        timeline: attemptTimeline(record).map((t) => ({
          ...t,
          at: toTimestamp(t.at),
          past: t.at <= now,
        })),
        next_transition_at: at(record.nextAt),
        logs: await runLog(deps, record, 200, now),
        files: files?.data ?? null,
        files_has_more: files?.hasMore ?? false,
        archive_url: archived ? `/_control/runs/${record.id}/archive` : null,
      },
      200,
    );
  });

  app.openapi(runArchiveRoute, async (c) => {
    const { record } = await settledRun(deps, c.req.valid('param').run_id);
    return serveArchive(c, record);
  });
}
