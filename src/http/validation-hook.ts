import type { Hook } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { type Issue, issueMessage, issueParam } from '../domain/zod-issue.js';
import { apiError } from '../errors.js';
import { renderError } from './render-error.js';

/**
 * How every route answers input zod rejects (STYLE.md rule 3: one hook): 400
 * `parameter_invalid` with `param` set to the first failing field's dotted path. `validatedApp`
 * calls it with a failure's issues; it answers the envelope rather than throwing it to `onError`,
 * the same answer without a throw on the request's path (issue 12).
 * @example validatedApp<AppEnv>(invalidAnswer)
 */
export function invalidAnswer(issues: readonly unknown[], _target: string, c: Context): Response {
  const issue = issues[0] as Issue | undefined;
  if (!issue) return renderError(apiError('parameter_invalid'), c as Context<AppEnv>);
  const param = issueParam(issue);
  const err = apiError('parameter_invalid', { param, message: issueMessage(issue, param) });
  return renderError(err, c as Context<AppEnv>);
}

/** The same answer as a `@hono/zod-openapi` hook, for an app built on `OpenAPIHono` itself. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) =>
  result.success ? undefined : invalidAnswer(result.error.issues, '', c);
