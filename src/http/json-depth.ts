import type { Context, Next } from 'hono';
import type { AppEnv } from '../core/env.js';
import { apiError, MESSAGES } from '../core/errors.js';

/**
 * The deepest nesting a JSON body may have (inferred): deeper answers 400 `parameter_invalid`, as
 * parsing, validating and journaling recurse, and a deep enough body overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of JSON text, scanned without recursion; strings are skipped. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > max) max = depth;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return max;
}

/**
 * First of the steps of a route that takes a JSON body (pipeline.ts; every control route,
 * control/app.ts): a body nested deeper than {@link MAX_JSON_DEPTH} answers 400 before anything
 * parses it. This is the body's one read: Hono keeps the text, so the validator's `c.req.json()`
 * and the journal reuse it. A route that takes no body never reads one.
 * @example app.use('*', checkJsonDepth)
 */
export async function checkJsonDepth(c: Context<AppEnv>, next: Next): Promise<void> {
  const method = c.req.method;
  const json =
    method !== 'GET' && method !== 'HEAD' && c.req.header('content-type')?.includes('json');
  if (json && jsonDepth(await c.req.text()) > MAX_JSON_DEPTH) {
    throw apiError('parameter_invalid', { message: MESSAGES.jsonTooDeep(MAX_JSON_DEPTH) });
  }
  await next();
}
