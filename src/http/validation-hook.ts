import type { Hook } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { type Issue, issueMessage, issueParam } from '../domain/zod-issue.js';
import { apiError } from '../errors.js';
import { renderError } from './render-error.js';

/**
 * The one validation hook, inherited by every route (STYLE.md rule 3): a zod failure becomes
 * 400 `parameter_invalid` with `param` set to the first failing field's dotted path. It answers
 * the envelope (zod-openapi sends a Response the hook returns) rather than throwing it to
 * `onError`: the same answer, without a throw on the request's path (issue 12).
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  const issue = result.error.issues[0] as Issue | undefined;
  if (!issue) return renderError(apiError('parameter_invalid'), c);
  const param = issueParam(issue);
  return renderError(
    apiError('parameter_invalid', { param, message: issueMessage(issue, param) }),
    c,
  );
};
