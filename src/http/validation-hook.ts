import type { OpenAPIHonoOptions } from '@hono/zod-openapi';
import type { AppEnv } from '../core/env.js';
import { type ApiError, apiError } from '../core/errors.js';
import { type Issue, issueError } from '../core/zod-issue.js';

/**
 * The one validation hook, both apps' `defaultHook` (STYLE.md rule 3): a zod failure is 400
 * `parameter_invalid` naming the first failing field's dotted path.
 * @example new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
 */
export const validationHook: OpenAPIHonoOptions<AppEnv>['defaultHook'] = (result) => {
  if (result.success) return;
  throw failedValidation(result.error);
};

/** The hook's 400 for a zod failure, returned (`pathAndQuery` answers it without a throw). */
export function failedValidation(error: { issues: readonly unknown[] }): ApiError {
  const issue = error.issues[0] as Issue | undefined;
  return issue ? issueError(issue) : apiError('parameter_invalid');
}
