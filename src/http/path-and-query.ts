import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../core/env.js';
import { envelopeAnswer } from '../core/envelope.js';
import { failedValidation } from './validation-hook.js';

/** The parts of a route's `request` this step validates. */
export interface PathAndQuery {
  query?: z.ZodType | undefined;
  params?: z.ZodType | undefined;
}

/**
 * A product route's query, then its path parameters, validated as @hono/zod-validator does it
 * (a query parameter given once is a string, given more often a list; the first failure is the
 * one validation hook's 400) and stored where `c.req.valid()` reads them, in one synchronous
 * step. zod-openapi's validator reads the request's `Content-Type` for every part, which makes
 * @hono/node-server build a `Headers` of every header (4,700 instructions a call), and awaits an
 * async parse and hook for each part: see docs/development.md "Why it is fast". A failure is
 * answered at once, not thrown (core/envelope.ts).
 */
export function pathAndQuery({ query, params }: PathAndQuery): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (query) {
      const result = query.safeParse(queryValue(c.req.queries()));
      if (!result.success)
        return Promise.resolve(envelopeAnswer(c, failedValidation(result.error)));
      c.req.addValidatedData('query', result.data as Record<string, unknown>);
    }
    if (params) {
      const result = params.safeParse(c.req.param());
      if (!result.success)
        return Promise.resolve(envelopeAnswer(c, failedValidation(result.error)));
      c.req.addValidatedData('param', result.data as Record<string, unknown>);
    }
    return next();
  };
}

/** Each query parameter's one value as a string, or its values as a list. */
function queryValue(queries: Record<string, string[]>): Record<string, string | string[]> {
  const value: Record<string, string | string[]> = {};
  for (const name of Object.keys(queries)) {
    const values = queries[name]!;
    value[name] = values.length === 1 ? values[0]! : values;
  }
  return value;
}
