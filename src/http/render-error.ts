import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { outgoingOf, wholeSeconds } from '../core/answer-headers.js';
import type { ErrorEnvelope } from '../core/contract.js';
import type { AppEnv } from '../core/env.js';
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

/** The error envelope of API document section 7 for any error, with `request_id` filled in. */
export function errorEnvelope(err: ApiError, requestId: string | null): ErrorEnvelope {
  const { type, code, message, param, details } = err;
  return { error: { type, code, message, param, request_id: requestId, details } };
}

/**
 * `JSON.stringify(envelope)`, the same text for about 4,000 fewer instructions an answer: the
 * keys are written as they are, the values each by JSON.stringify (a `null` as such). `type` is
 * one of ERROR_TYPES and a request id the emulator's own (`req_` and a ULID): neither needs
 * escaping. Every error answer pays for its JSON (docs/development.md "Why it is fast").
 */
export function envelopeText({ error }: ErrorEnvelope): string {
  return (
    `{"error":{"type":"${error.type}","code":${JSON.stringify(error.code)},` +
    `"message":${JSON.stringify(error.message)},"param":${orNull(error.param)},` +
    `"request_id":${error.request_id === null ? 'null' : `"${error.request_id}"`},` +
    `"details":${orNull(error.details)}}}`
  );
}

const orNull = (value: unknown) => (value === null ? 'null' : JSON.stringify(value));

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
  c.set('errorCode', apiErr.code);
  const body = errorEnvelope(apiErr, c.get('requestId') ?? null);
  c.set('errorBody', body);
  c.set('retryAfter', wholeSeconds(apiErr.headers['Retry-After']));
  const headers = answerHeaders(apiErr.headers);
  const text = envelopeText(body);
  // Given more than one header (a 429's `Retry-After`), Hono's `c.body` builds an undici
  // `Headers`, which @hono/node-server then copies into a plain object to write: where Node serves
  // the call, the answer takes the plain object, as Node writes it. Under `app.request()`, `c.body`
  // adds the headers `setAnswerHeader` gave Hono.
  if (outgoingOf(c)) return new Response(text, { status: apiErr.status, headers });
  return c.body(text, apiErr.status as ContentfulStatusCode, headers);
}

/**
 * An error answer's headers: its JSON type, and any of its own in lower case, as a `Headers`
 * gives them (what the answer has always sent: `retry-after: 7`).
 */
function answerHeaders(own: Record<string, string>): Record<string, string> {
  const names = Object.keys(own);
  if (names.length === 0) return { 'Content-Type': 'application/json' };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of names) headers[name.toLowerCase()] = own[name]!;
  return headers;
}
