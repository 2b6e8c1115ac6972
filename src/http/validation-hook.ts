import type { Hook } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { type Issue, issueMessage, issueParam } from '../domain/zod-issue.js';
import { apiError } from '../errors.js';

/**
 * The one validation hook, inherited by every route (STYLE.md rule 3): a zod failure becomes
 * 400 `parameter_invalid` with `param` set to the first failing field's dotted path.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0] as Issue | undefined;
  if (!issue) throw apiError('parameter_invalid');
  const param = issueParam(issue);
  throw apiError('parameter_invalid', { param, message: issueMessage(issue, param) });
};
