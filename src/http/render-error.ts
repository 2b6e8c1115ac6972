import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../core/env.js';
import { envelopeAnswer } from '../core/envelope.js';
import { ApiError, apiError, MESSAGES } from '../core/errors.js';

/** Maps what Hono's own middleware throws onto the catalog (DESIGN.md section 3). */
function fromHttpException(err: HTTPException): ApiError {
  if (err.status === 413) return apiError('request_too_large');
  if (err.status === 415) return apiError('parameter_invalid', { message: MESSAGES.notJson });
  if (err.status === 400) {
    return apiError('parameter_invalid', { message: `${err.message}.`.replace(/\.\.$/, '.') });
  }
  return apiError('api_error');
}

/**
 * Node's error for a body read when the connection closed before the body was all there (the
 * client left, or the request timeout closed it: the client got that 408).
 */
function cutShort(err: Error): boolean {
  return (err as { code?: unknown }).code === 'ECONNRESET' && err.message === 'aborted';
}

/** The one `onError`: the envelope; an unexpected exception is logged and answered 500. */
export function renderError(err: Error, c: Context<AppEnv>): Response {
  let apiErr: ApiError;
  if (err instanceof ApiError) apiErr = err;
  else if (err instanceof HTTPException) apiErr = fromHttpException(err);
  else if (cutShort(err)) {
    // No one reads this answer; the journal records the call as the client left it.
    c.set('clientClosed', true);
    apiErr = apiError('request_malformed', { message: MESSAGES.bodyCutShort });
  } else if ((err as { code?: unknown }).code === 'SQLITE_FULL') {
    // The in-memory database's ceiling (store/store.ts): a limit reached, not a bug.
    apiErr = apiError('api_error', { message: MESSAGES.worldFull });
  } else {
    console.error(`[svc-emulator] unexpected error on ${c.req.method} ${c.req.path}:`, err);
    apiErr = apiError('api_error');
  }
  return envelopeAnswer(c, apiErr);
}
