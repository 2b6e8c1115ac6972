/**
 * What a fault does to a call (DESIGN.md section 8, "The error-handling lab"): before the work
 * (the default: nothing is touched) or after it (`after`: the resource is made or changed, charged
 * and journaled; only the answer is lost), as an error envelope, a dropped connection, or a hang
 * (the answer held for `hang_ms` of wall time, then the connection closed without one).
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, Next } from 'hono';
import type { AppEnv } from '../../core/env.js';
import { envelopeAnswer } from '../../core/envelope.js';
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
 * Strikes the call with `respond`: before its work (answers the envelope, drops or hangs), or
 * with `after` once the rest of the pipeline has answered, replacing that answer. Before the work
 * the envelope is answered at once, not thrown (core/envelope.ts): a fault header's tests ask
 * for one fault thousands of times.
 * @example return strike(c, next, { status: 502, after: true }, match?.conflict ?? null)
 */
export function strike(
  c: Context<AppEnv>,
  next: Next,
  respond: StrikeRespond,
  conflict: string | null,
): Promise<Response | undefined> {
  if (respond.after === true) return strikeAfter(c, next, respond, conflict);
  const read = readBody(c);
  return read
    ? read.then(() => strikeBefore(c, respond, conflict))
    : strikeBefore(c, respond, conflict);
}

/** The fault struck before the work: nothing is touched. */
function strikeBefore(
  c: Context<AppEnv>,
  respond: StrikeRespond,
  conflict: string | null,
): Promise<Response> {
  const hangMs = 'hang_ms' in respond ? respond.hang_ms : null;
  c.set('strike', { after: false, hangMs, workStatus: null });
  if ('status' in respond) return Promise.resolve(envelopeAnswer(c, faultError(respond, conflict)));
  if (hangMs === null) return Promise.resolve(drop(c));
  return holdFor(c, hangMs).then((closed) => {
    if (closed) c.set('clientClosed', true);
    return drop(c);
  });
}

/** The fault struck once the work has answered: its answer gives way to the fault's. */
async function strikeAfter(
  c: Context<AppEnv>,
  next: Next,
  respond: StrikeRespond,
  conflict: string | null,
): Promise<undefined> {
  await next();
  const hangMs = 'hang_ms' in respond ? respond.hang_ms : null;
  c.set('strike', { after: true, hangMs, workStatus: c.res.status });
  if ('status' in respond) {
    // The work's answer (and the headers it set) gives way to the envelope rendered afresh.
    c.res = undefined;
    throw faultError(respond, conflict);
  }
  if (hangMs !== null && (await holdFor(c, hangMs))) c.set('clientClosed', true);
  // A middleware's answer after `next()` is ignored: the work's answer is replaced in place.
  c.res = undefined;
  c.res = drop(c);
}

/**
 * A body the client sent with a faulted call, read so the journal can tell a resend unchanged
 * (its digest); only one of a stated length within the pipeline's limit, never one still coming.
 * Null when there is none to read.
 */
function readBody(c: Context<AppEnv>): Promise<unknown> | null {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return null;
  if (incomingOf(c)) {
    const length = Number(c.req.header('content-length'));
    if (!(length > 0 && length <= READ_BEFORE_FAULT_MAX)) return null;
  }
  return c.req.text().catch(() => undefined);
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
