import type { Context, MiddlewareHandler } from 'hono';
import { bearerSecret } from '../../core/accounts/authenticate.js';
import type { AppEnv } from '../../core/env.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import { joinedHeader } from '../../core/request-header.js';
import { routeMatchOf } from '../../core/route-match.js';
import type { RouteMatch } from '../../core/route-table.js';
import type { StrikeRespond } from './contract.js';
import { parseFaultHeader } from './fault-header.js';
import { holdFor, strike } from './strike.js';

export { faultError } from './strike.js';

/** The fault that strikes a call: who decided it (`fault_id` in the journal) and what it does. */
interface Action {
  source: string;
  respond: StrikeRespond;
}

/** Paths fault rules and `X-Emulator-Fault` apply to: the product API and signed downloads. */
export function faultable(path: string): boolean {
  return path.startsWith('/v1/') || path.startsWith('/_downloads/');
}

/**
 * The first check (docs/api.md "Order of checks"): `X-Emulator-Fault`, then the fault rules, then
 * the sweeps. A fault answers before the call does anything (an envelope, a dropped connection, a
 * hang) or, with `after`, once it has done its work (strike.ts); a delay holds the call.
 * @example app.use(faults)
 */
export const faults: MiddlewareHandler<AppEnv> = (c, next) => {
  const header = joinedHeader(c, 'x-emulator-fault') || undefined;
  const rules = c.get('deps').faults;
  const none = rules.size === 0 && !rules.sweeps.armed;
  if (!faultable(c.req.path) || (header === undefined && none)) return next();
  const match = routeMatchOf(c);
  const { delayMs, action } = decide(c, header, match);
  const act = (): ReturnType<MiddlewareHandler<AppEnv>> => {
    if (action === null) return next();
    callerOf(c);
    c.set('faultId', action.source);
    return strike(c, next, action.respond, match?.conflict ?? null);
  };
  if (delayMs === 0) return act();
  return holdFor(c, delayMs).then((closed) => {
    if (closed) c.set('clientClosed', true);
    return act();
  });
};

/** What the header asks for, else what the first rule or sweep that fires decides, plus delays. */
function decide(
  c: Context<AppEnv>,
  header: string | undefined,
  match: RouteMatch | null,
): { delayMs: number; action: Action | null } {
  let delayMs = 0;
  if (header !== undefined) {
    const parsed = parseFaultHeader(header);
    if ('invalid' in parsed) {
      throw invalidParam('X-Emulator-Fault', MESSAGES.badFaultHeader(parsed.invalid));
    }
    if (!('delay_ms' in parsed))
      return { delayMs, action: { source: 'X-Emulator-Fault', respond: parsed } };
    delayMs = parsed.delay_ms;
  }
  const rules = c.get('deps').faults;
  const operation = match?.operation ?? null;
  if (rules.size > 0) {
    const decision = rules.decide({
      method: c.req.method,
      route: match?.route ?? null,
      operation,
      caller: () => callerOf(c),
    });
    delayMs += decision.delayMs;
    if (decision.action)
      return {
        delayMs,
        action: { source: decision.action.rule.id, respond: decision.action.respond },
      };
  }
  const swept = rules.sweeps.strike(
    { operation, account: () => callerOf(c)?.accountId ?? null },
    c.get('requestId'),
  );
  return { delayMs, action: swept && { source: swept.sweep.id, respond: swept.respond } };
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
