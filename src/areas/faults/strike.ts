/**
 * What a fault does to a call (DESIGN.md section 8, "The error-handling lab"): before the work
 * (the default: nothing is touched) or after it (`after`: the resource is made or changed, charged
 * and journaled; only the answer is lost), as an error envelope, a dropped connection, or a hang
 * (the answer held for `hang_ms` of wall time, then the connection closed without one).
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, Next } from 'hono';
import type { AppEnv } from '../../core/env.js';
import { ApiError } from '../../core/errors.js';
import type { StrikeRespond } from './contract.js';
import { defaultFaultCode } from './fault-rules.js';

type ErrorRespond = Extract<StrikeRespond, { status: number }>;

/** A body read before a fault answers is at most this long (the pipeline's own 1 MiB limit). */
const READ_BEFORE_FAULT_MAX = 1024 * 1024;

/** The documented envelope for a fault: the rule's status and code, `Retry-After` when due. */
export function faultError(r: ErrorRespond, conflict: string | null): ApiError {
  const code = r.code ?? defaultFaultCode(r.status, conflict);
  const retryAfter = r.retry_after ?? (r.status === 429 ? 1 : undefined);
  return ApiError.of(code, {
    status: r.status,
    message: r.message,
    param: r.param ?? null,
    details: r.details ?? null,
    headers: retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
  });
}

const incomingOf = (c: Context<AppEnv>) => (c.env as Partial<HttpBindings> | undefined)?.incoming;

/**
 * Strikes the call with `respond`: before its work (throws the envelope, drops or hangs), or with
 * `after` once the rest of the pipeline has answered, replacing that answer.
 * @example return strike(c, next, { status: 502, after: true }, match?.conflict ?? null)
 */
export async function strike(
  c: Context<AppEnv>,
  next: Next,
  respond: StrikeRespond,
  conflict: string | null,
): Promise<Response | undefined> {
  const after = respond.after === true;
  let workStatus: number | null = null;
  if (after) {
    await next();
    workStatus = c.res.status;
  } else {
    await readBody(c);
  }
  const hangMs = 'hang_ms' in respond ? respond.hang_ms : null;
  c.set('strike', { after, hangMs, workStatus });
  if ('status' in respond) {
    // The work's answer (and the headers it set) gives way to the envelope rendered afresh.
    if (after) c.res = undefined;
    throw faultError(respond, conflict);
  }
  if (hangMs !== null && (await holdFor(c, hangMs))) c.set('clientClosed', true);
  if (!after) return drop(c);
  // A middleware's answer after `next()` is ignored: the work's answer is replaced in place.
  c.res = undefined;
  c.res = drop(c);
}

/**
 * A body the client sent with a faulted call, read so the journal can tell a resend unchanged
 * (its digest); only one of a stated length within the pipeline's limit, never one still coming.
 */
async function readBody(c: Context<AppEnv>): Promise<void> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return;
  if (incomingOf(c)) {
    const length = Number(c.req.header('content-length'));
    if (!(length > 0 && length <= READ_BEFORE_FAULT_MAX)) return;
  }
  await c.req.text().catch(() => undefined);
}

/**
 * Holds the call `ms` of wall time, or until the client closes its connection first; answers
 * whether it did. Under `app.request()` there is no connection: it holds the whole time.
 */
export function holdFor(c: Context<AppEnv>, ms: number): Promise<boolean> {
  const socket = incomingOf(c)?.socket;
  if (socket?.destroyed) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket?.off('close', onClose);
      resolve(closed);
    };
    const onClose = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    socket?.once('close', onClose);
  });
}

/** Closes the connection without a response; under `app.request()` a network-error Response. */
export function drop(c: Context<AppEnv>): Response {
  c.set('dropped', true);
  const incoming = incomingOf(c);
  if (incoming) {
    incoming.socket.destroy();
    return new Response(null, { status: 204 });
  }
  return Response.error();
}
