import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { bearerSecret } from '../../core/accounts/authenticate.js';
import type { AppEnv } from '../../core/env.js';
import { ApiError, invalidParam, MESSAGES } from '../../core/errors.js';
import { routeMatchOf } from '../../core/route-match.js';
import type { RouteMatch } from '../../core/route-table.js';
import {
  defaultFaultCode,
  type FaultDecision,
  type FaultRespond,
  parseFaultHeader,
} from './fault-rules.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type ErrorRespond = Extract<FaultRespond, { status: number }>;
type Action = FaultDecision['action'] | { kind: 'header'; respond: FaultRespond };

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

/** Paths fault rules and `X-Emulator-Fault` apply to: the product API and signed downloads. */
export function faultable(path: string): boolean {
  return path.startsWith('/v1/') || path.startsWith('/_downloads/');
}

/**
 * The first check (docs/api.md "Order of checks"): `X-Emulator-Fault`, then the fault rules. A
 * fault throws its envelope or drops the connection, changing no state; a delay holds the call.
 * @example app.use(faults)
 */
export const faults: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('x-emulator-fault') || undefined;
  const noRules = c.get('deps').faults.size === 0;
  if (!faultable(c.req.path) || (header === undefined && noRules)) return next();
  const match = routeMatchOf(c);
  const { delayMs, action } = decide(c, header, match);
  if (delayMs > 0) await sleep(delayMs);
  if (action === null) return next();
  callerOf(c);
  c.set('faultId', action.kind === 'header' ? 'X-Emulator-Fault' : action.rule.id);
  const respond = action.kind === 'drop' ? ({ drop: true } as const) : action.respond;
  if ('drop' in respond) return drop(c);
  if ('delay_ms' in respond) return next();
  throw faultError(respond, match?.conflict ?? null);
};

/** What the header asks for, else what the first rule that fires decides, plus any delays. */
function decide(
  c: Context<AppEnv>,
  header: string | undefined,
  match: RouteMatch | null,
): { delayMs: number; action: Action } {
  let delayMs = 0;
  if (header !== undefined) {
    const parsed = parseFaultHeader(header);
    if ('invalid' in parsed) {
      throw invalidParam('X-Emulator-Fault', MESSAGES.badFaultHeader(parsed.invalid));
    }
    if (!('delay_ms' in parsed)) return { delayMs, action: { kind: 'header', respond: parsed } };
    delayMs = parsed.delay_ms;
  }
  const rules = c.get('deps').faults;
  if (rules.size === 0) return { delayMs, action: null };
  const decision = rules.decide({
    method: c.req.method,
    route: match?.route ?? null,
    operation: match?.operation ?? null,
    caller: () => callerOf(c),
  });
  return { delayMs: delayMs + decision.delayMs, action: decision.action };
}

/**
 * Who the Authorization header names, revoked or not, looked up once: for rules, and the journal
 * of a faulted call.
 */
function callerOf(c: Context<AppEnv>): AppEnv['Variables']['caller'] {
  let caller = c.get('caller');
  if (caller === undefined) {
    const secret = bearerSecret(c.req.header('authorization'));
    const found = secret?.startsWith('svc_') ? c.get('deps').store.credentials(secret) : undefined;
    caller = found
      ? { accountId: found.key.accountId, keyId: found.key.id, account: found.account }
      : null;
    c.set('caller', caller);
  }
  return caller;
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
