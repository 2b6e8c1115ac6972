import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../api/env.js';
import { wallNow } from '../runtime/clock.js';
import { cutText, type JournalDetail } from '../runtime/journal-details.js';
import { routeMatchOf } from './route-match.js';

/** Paths longer than this are kept truncated, so the journal's size is bounded (inferred). */
export const JOURNAL_PATH_MAX = 2048;

/** A path cut after `JOURNAL_PATH_MAX` characters, followed by a marker naming what was cut. */
export function journalPath(path: string): string {
  if (path.length <= JOURNAL_PATH_MAX) return path;
  const marker = `...[truncated ${path.length - JOURNAL_PATH_MAX} chars]`;
  return path.slice(0, JOURNAL_PATH_MAX) + marker;
}

/**
 * Records every request but the control API's in the journal once its answer is decided,
 * faulted and dropped ones included (DESIGN.md section 5): reading the journal must not change it.
 * @example app.use(journal)
 */
export const journal: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.path.startsWith('/_control')) return next();
  const startedWall = wallNow();
  const answer = keepJsonAnswer(c);
  await next();
  recordRequest(c, startedWall, await detailOf(c, answer.text));
};

/**
 * `c.json` as Hono writes it (`Content-Type: application/json` unless given), keeping the text
 * for the journal's detail (journal-details.ts), so an answer is not serialized twice.
 */
function keepJsonAnswer(c: Context<AppEnv>): { text: string | null } {
  const kept: { text: string | null } = { text: null };
  c.json = ((object: unknown, arg?: unknown, headers?: Record<string, string>) => {
    const text = JSON.stringify(object);
    kept.text = text;
    return c.body(text, arg as never, { 'Content-Type': 'application/json', ...headers });
  }) as unknown as typeof c.json;
  return kept;
}

/** The request and answer as the detail pane shows them, from what was already read and made. */
async function detailOf(c: Context<AppEnv>, answer: string | null): Promise<JournalDetail> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const url = incoming?.url ?? c.req.url;
  const q = url.indexOf('?');
  // Only a body the pipeline already read (JSON bodies: json-depth.ts): reading one here would
  // wait for a body the answer did not need.
  const read = c.req.bodyCache.text as unknown as Promise<string> | undefined;
  return {
    requestHeaders: incoming?.rawHeaders ?? [...c.req.raw.headers].flat(),
    query: q < 0 ? '' : cutText(url.slice(q + 1)),
    requestBody: read ? await read.then(cutText, () => null) : null,
    responseHeaders: c.get('dropped') === true ? [] : [...c.res.headers],
    responseBody: answer === null ? null : cutText(answer),
  };
}

function recordRequest(c: Context<AppEnv>, startedWall: number, detail: JournalDetail): void {
  const deps = c.get('deps');
  const wall = wallNow();
  const match = routeMatchOf(c);
  const auth = c.get('auth');
  const caller = c.get('caller');
  const accountId = auth?.account.id ?? caller?.accountId ?? null;
  let atMs = c.get('now');
  if (atMs === undefined) {
    // A call answered before authentication (a fault): the caller's account, if any.
    const account = auth?.account ?? caller?.account;
    atMs = account ? deps.clocks.now(account) : deps.systemClock.now();
  }
  const dropped = c.get('dropped') === true;
  const status = dropped ? null : c.res.status;
  const code = dropped ? null : (c.get('errorCode') ?? null);
  // Counted whatever the journal keeps (--journal-size 0 too): the coverage report needs them all.
  deps.coverage.record({ operation: match?.operation ?? null, status, code, account: accountId });
  deps.journal.record(
    {
      request_id: c.get('requestId'),
      method: c.req.method,
      path: journalPath(c.req.path),
      route: match?.route ?? null,
      operation: match?.operation ?? null,
      status,
      code,
      account_id: accountId,
      key_id: auth?.key.id ?? caller?.keyId ?? null,
      fault_id: c.get('faultId') ?? null,
      idempotent_replayed: c.get('replayed') === true,
      at_ms: atMs,
      wall_ms: wall,
      duration_ms: wall - startedWall,
    },
    detail,
  );
}
