import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { ApiError } from '../errors.js';
import { renderError } from './render-error.js';

/** What a handler or a step of the pipeline answers: the Response, or one to wait for. */
export type Answer = Response | Promise<Response>;

/**
 * `step()`, with whatever it throws, now or later, answered as the error envelope, as Hono's
 * `onError` answers what a layer throws. A step may also return the `ApiError` it would throw
 * (a run lookup's 404, api/runs.ts): the same answer without a throw.
 * @example return answering(c, () => handler(c))
 */
export function answering(
  c: Context<AppEnv>,
  step: () => Answer | ApiError | Promise<Response | ApiError>,
): Answer {
  try {
    const answer = step();
    if (answer instanceof Promise) {
      return answer.then(
        (res) => (res instanceof ApiError ? renderError(res, c) : res),
        (err) => rendered(err, c),
      );
    }
    return answer instanceof ApiError ? renderError(answer, c) : answer;
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
