/** The `X-Emulator-Fault` shortcut (docs/control-api.md): one call asks for its own fault. */
import {
  DelayResponse,
  DropResponse,
  ErrorResponse,
  FAULT_STATUSES,
  type FaultRespond,
  HangResponse,
} from './contract.js';

/** A parsed value, or what is wrong with it (its message names the part). */
function checked(
  schema: typeof DelayResponse | typeof DropResponse | typeof ErrorResponse | typeof HangResponse,
  value: Record<string, unknown>,
): FaultRespond | { invalid: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return { invalid: `${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'invalid'}` };
}

/**
 * Parses `X-Emulator-Fault`: `429`, `429;retry-after=7`, `409;code=idempotency_key_reused`,
 * `502;message=...`, `delay=250`, `drop`, `hang=5000`, and `;after` on a 5xx, `drop` or `hang`
 * (strike once the call has done its work). Answers a rule's `respond`, or what is wrong.
 * @example parseFaultHeader('502;after') // { status: 502, after: true }
 */
export function parseFaultHeader(value: string): FaultRespond | { invalid: string } {
  // A status alone, the shortcut's usual form, is what ErrorResponse makes of `{status}` when the
  // status is one of FAULT_STATUSES: answered without the schema's checks, which cost about 6 us
  // a call (an SDK's error tests send one fault thousands of times).
  if (/^\d{3}$/.test(value) && (FAULT_STATUSES as readonly number[]).includes(Number(value)))
    return { status: Number(value) };
  const [head = '', ...params] = value.split(';').map((p) => p.trim());
  const after = params.some((p) => p.toLowerCase() === 'after');
  const rest = params.filter((p) => p.toLowerCase() !== 'after');
  const extra = after ? { after: true } : {};
  if (head.toLowerCase() === 'drop' && rest.length === 0)
    return checked(DropResponse, { drop: true, ...extra });
  const hang = /^hang=(\d{1,6})$/i.exec(head);
  if (hang && rest.length === 0)
    return checked(HangResponse, { hang_ms: Number(hang[1]), ...extra });
  const delay = /^delay=(\d{1,5})$/i.exec(head);
  if (delay && params.length === 0) {
    const parsed = DelayResponse.safeParse({ delay_ms: Number(delay[1]) });
    return parsed.success ? parsed.data : { invalid: 'delay must be 0 to 60000 ms' };
  }
  if (!/^\d{3}$/.test(head)) {
    return { invalid: "expected a status (e.g. '429'), 'delay=MS', 'drop' or 'hang=MS'" };
  }
  const out: Record<string, unknown> = { status: Number(head), ...extra };
  for (const p of rest) {
    const eq = p.indexOf('=');
    const name = (eq < 0 ? p : p.slice(0, eq)).toLowerCase();
    const v = eq < 0 ? '' : p.slice(eq + 1);
    if (name === 'code') out.code = v;
    else if (name === 'message') out.message = v;
    else if (name === 'param') out.param = v;
    else if (name === 'retry-after' && /^\d{1,5}$/.test(v)) out.retry_after = Number(v);
    else return { invalid: `unknown or malformed parameter '${p}'` };
  }
  return checked(ErrorResponse, out);
}
