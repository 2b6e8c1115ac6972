import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { renderError } from './render-error.js';

/** What a handler or a step of the pipeline answers: the Response, or one to wait for. */
export type Answer = Response | Promise<Response>;

/**
 * `step()`, with whatever it throws, now or later, answered as the error envelope, as Hono's
 * `onError` answers what a layer throws (handlers still throw `apiError(...)`).
 * @example return answering(c, () => handler(c))
 */
export function answering(c: Context<AppEnv>, step: () => Answer): Answer {
  try {
    const answer = step();
    return answer instanceof Promise ? answer.catch((err) => rendered(err, c)) : answer;
  } catch (err) {
    return rendered(err, c);
  }
}

/** As Hono's compose: an Error goes to `onError`, anything else on up. */
function rendered(err: unknown, c: Context<AppEnv>): Response {
  if (err instanceof Error) return renderError(err, c);
  throw err;
}

/**
 * `next(value)`, without a promise when the value is already there: the request's path stays
 * synchronous until a step really waits.
 * @example return andThen(settling, () => route(c))
 */
export function andThen<T>(value: T | Promise<T>, next: (value: T) => Answer): Answer {
  return value instanceof Promise ? value.then(next) : next(value);
}
