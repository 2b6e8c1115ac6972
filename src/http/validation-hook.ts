import type { OpenAPIHonoOptions } from '@hono/zod-openapi';
import type { AppEnv } from '../core/env.js';
import { apiError } from '../core/errors.js';
import { type Issue, issueError } from '../core/zod-issue.js';

/**
 * The one validation hook, both apps' `defaultHook` (STYLE.md rule 3): a zod failure is 400
 * `parameter_invalid` naming the first failing field's dotted path.
 * @example new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
 */
export const validationHook: OpenAPIHonoOptions<AppEnv>['defaultHook'] = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0] as Issue | undefined;
  if (!issue) throw apiError('parameter_invalid');
  throw issueError(issue);
};
