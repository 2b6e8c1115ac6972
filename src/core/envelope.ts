/**
 * The error envelope of the API document (section 7) and the answer that carries it: what
 * `renderError` (http/render-error.ts) answers for anything thrown, and what a step that knows its
 * answer is an error returns at once (pipeline.ts's 401 and 403, a path or query's 400, a run's
 * 404, a fault before the work). Thrown in a request's callback, an error costs V8 a message with
 * its source location, a walk of the stack; handed back rejected, a throw at Hono's await and
 * Node's bookkeeping of a rejection: 2 to 5 us a call (docs/development.md "Why it is fast").
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { outgoingOf, wholeSeconds } from './answer-headers.js';
import type { ErrorEnvelope } from './contract.js';
import type { AppEnv } from './env.js';
import type { ApiError } from './errors.js';

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
 * The answer to `err`, its code, envelope and `Retry-After` noted for the journal.
 * @example return envelopeAnswer(c, notFound('evaluation', id, 'run_id'))
 */
export function envelopeAnswer(c: Context<AppEnv>, err: ApiError): Response {
  c.set('errorCode', err.code);
  const body = errorEnvelope(err, c.get('requestId') ?? null);
  c.set('errorBody', body);
  c.set('retryAfter', wholeSeconds(err.headers['Retry-After']));
  const headers = answerHeaders(err.headers);
  const text = envelopeText(body);
  // Given more than one header (a 429's `Retry-After`), Hono's `c.body` builds an undici
  // `Headers`, which @hono/node-server then copies into a plain object to write: where Node serves
  // the call, the answer takes the plain object, as Node writes it. Under `app.request()`, `c.body`
  // adds the headers `setAnswerHeader` gave Hono.
  if (outgoingOf(c)) return new Response(text, { status: err.status, headers });
  return c.body(text, err.status as ContentfulStatusCode, headers);
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
