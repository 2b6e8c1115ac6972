import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { boundedMemo } from '../domain/bounded-memo.js';
import { ApiError, apiError, MESSAGES } from '../errors.js';
import {
  defaultFaultCode,
  type FaultDecision,
  type FaultRespond,
  type FaultTarget,
  parseFaultHeader,
} from '../runtime/fault-rules.js';
import { peekCaller } from './caller.js';
import { renderError } from './render-error.js';
import { routeMatchOf } from './route-match.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type ErrorRespond = Extract<FaultRespond, { status: number }>;

/** The documented envelope for a fault: the rule's status and code, `Retry-After` when due. */
export function faultError(r: ErrorRespond, operation: string | null): ApiError {
  const code = r.code ?? defaultFaultCode(r.status, operation);
  const retryAfter = r.retry_after ?? (r.status === 429 ? 1 : undefined);
  return ApiError.of(code, {
    status: r.status,
    message: r.message,
    param: r.param ?? null,
    details: r.details ?? null,
    headers: retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
  });
}

type ParsedHeader = ReturnType<typeof parseFaultHeader>;

/** Header values already parsed, per app (STYLE.md rule 4); emptied when full, so bounded. */
const HEADER_CACHE_MAX = 256;

/**
 * `parseFaultHeader` remembered: a retrying SDK under a fault storm sends the same few values
 * thousands of times, and parsing one (a zod schema) was about a sixth of a faulted call (issue
 * 12, by CPU profile). The answers are never mutated, so sharing them is safe.
 */
export function faultHeaderParser(): (value: string) => ParsedHeader {
  return boundedMemo(HEADER_CACHE_MAX, parseFaultHeader);
}

/** Closes the connection without a response; under `app.request()` a network-error Response. */
function drop(c: Context<AppEnv>): Response {
  c.set('dropped', true);
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming) {
    incoming.socket.destroy();
    return new Response(null, { status: 204 });
  }
  return Response.error();
}

/** Paths fault rules and `X-Emulator-Fault` apply to: the product API and signed downloads. */
export function faultable(path: string): boolean {
  return path.startsWith('/v1/') || path.startsWith('/_downloads/');
}

/**
 * The first check (DESIGN.md section 3, order of checks): the `X-Emulator-Fault` header, then
 * the fault rules. Answers the fault's error envelope or the Response of a dropped connection,
 * or undefined (after any delay) when the call goes on. A faulted call reaches nothing behind
 * it, so it changes no state. The request context calls it only when there is a header or a
 * rule.
 */
export function checkFaults(
  c: Context<AppEnv>,
  parseHeader: (value: string) => ParsedHeader,
): Response | undefined | Promise<Response | undefined> {
  const deps = c.get('deps');
  const header = c.req.header('x-emulator-fault') || undefined;
  const method = c.req.method;
  const match = routeMatchOf(c);
  const operation = match?.operation ?? null;

  let delayMs = 0;
  let action: Action = null;
  if (header !== undefined) {
    const parsed = parseHeader(header);
    if ('invalid' in parsed) {
      const err = apiError('parameter_invalid', {
        param: 'X-Emulator-Fault',
        message: MESSAGES.badFaultHeader(parsed.invalid),
      });
      return renderError(err, c);
    }
    if ('delay_ms' in parsed) delayMs += parsed.delay_ms;
    else action = { kind: 'header', respond: parsed };
  }
  if (action === null && deps.faults.size > 0) {
    const decision = deps.faults.decide(new CallTarget(method, match?.route ?? null, operation, c));
    delayMs += decision.delayMs;
    action = decision.action;
  }
  // Synchronous unless delayed: a call no rule matches (the usual case with rules installed)
  // goes on without another promise.
  if (delayMs > 0) return sleep(delayMs).then(() => answer(c, action, operation));
  return answer(c, action, operation);
}

/**
 * Who the Authorization header names, looked up once per request: for rules matched on account
 * or key, and for the journal. Authentication reuses the digest instead of hashing the same
 * secret again.
 */
function callerOf(c: Context<AppEnv>): ReturnType<typeof peekCaller> {
  let caller = c.get('caller');
  if (caller === undefined) {
    caller = peekCaller(c.get('deps'), c.req.header('authorization'));
    c.set('caller', caller);
  }
  return caller;
}

/**
 * The call as fault rules see it. A class, so that matching (on every call while any rule is
 * installed) makes no closure for the caller.
 */
class CallTarget implements FaultTarget {
  constructor(
    readonly method: string,
    readonly route: string | null,
    readonly operation: string | null,
    private readonly c: Context<AppEnv>,
  ) {}

  caller(): ReturnType<typeof peekCaller> {
    return callerOf(this.c);
  }
}

type Action = FaultDecision['action'] | { kind: 'header'; respond: FaultRespond };

/** What the chosen action does: nothing, a dropped connection, or the fault's error. */
function answer(
  c: Context<AppEnv>,
  action: Action,
  operation: string | null,
): Response | undefined {
  if (action === null) return undefined;
  callerOf(c);
  c.set('faultId', action.kind === 'header' ? 'X-Emulator-Fault' : action.rule.id);
  const respond = action.kind === 'drop' ? ({ drop: true } as const) : action.respond;
  if ('drop' in respond) return drop(c);
  if ('delay_ms' in respond) return undefined;
  return renderError(faultError(respond, operation), c);
}
