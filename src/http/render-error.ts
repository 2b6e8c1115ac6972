import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../api/env.js';
import type { ErrorEnvelope } from '../contract/common.js';
import { ApiError, apiError, MESSAGES } from '../errors.js';

/** Maps what Hono's own middleware throws onto the catalog (DESIGN.md section 3). */
function fromHttpException(err: HTTPException): ApiError {
  if (err.status === 413) return apiError('request_too_large');
  if (err.status === 415) {
    return apiError('parameter_invalid', {
      message: MESSAGES.notJson,
    });
  }
  if (err.status === 400) {
    return apiError('parameter_invalid', { message: `${err.message}.`.replace(/\.\.$/, '.') });
  }
  return apiError('api_error');
}

/** The error envelope of API document section 7 for any error, with `request_id` filled in. */
export function errorEnvelope(err: ApiError, requestId: string | null): ErrorEnvelope {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      param: err.param,
      request_id: requestId,
      details: err.details,
    },
  };
}

/**
 * The one `onError`: every failure leaves as the standard envelope. An unexpected exception is
 * logged to stderr and answered 500 `api_error` without internals.
 */
export function renderError(err: Error, c: Context<AppEnv>): Response {
  let apiErr: ApiError;
  if (err instanceof ApiError) apiErr = err;
  else if (err instanceof HTTPException) apiErr = fromHttpException(err);
  else if ((err as { code?: unknown }).code === 'SQLITE_FULL') {
    // The in-memory database's ceiling (store/store.ts): a limit reached, not a bug.
    apiErr = apiError('api_error', { message: MESSAGES.worldFull });
  } else {
    console.error(`[svc-emulator] unexpected error on ${c.req.method} ${c.req.path}:`, err);
    apiErr = apiError('api_error');
  }
  const requestId = c.get('requestId') ?? null;
  c.set('errorCode', apiErr.code);
  return new Response(JSON.stringify(errorEnvelope(apiErr, requestId)), {
    status: apiErr.status,
    headers: errorHeaders(apiErr.headers),
  });
}

/**
 * The headers of an error answer as a plain object. `c.json()` keeps one only for a single
 * header: with a second (a 429's `Retry-After`) it builds a WHATWG Headers, which the Node
 * adapter converts back (issue 12). The names are written as that Headers sent them, lowercase
 * and sorted, so the bytes on the wire are unchanged.
 */
function errorHeaders(extra: Record<string, string>): Record<string, string> {
  const names = Object.keys(extra);
  if (names.length === 0) return { 'Content-Type': 'application/json' };
  // A 429's, already in that order: sorting and building entries was about 1 us of a faulted
  // 429 (issue 12, by CPU profile).
  if (names.length === 1 && names[0] === 'Retry-After') {
    return { 'content-type': 'application/json', 'retry-after': extra['Retry-After']! };
  }
  const entries: [string, string][] = [['content-type', 'application/json']];
  for (const name of names) entries.push([name.toLowerCase(), extra[name]!]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}
