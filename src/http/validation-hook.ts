import type { OpenAPIHonoOptions } from '@hono/zod-openapi';
import type { AppEnv } from '../api/env.js';
import { type Issue, issueError } from '../domain/zod-issue.js';
import { apiError } from '../errors.js';

/**
 * The one validation hook, the `defaultHook` of both apps (STYLE.md rule 3): a zod failure
 * becomes 400 `parameter_invalid` with `param` set to the first failing field's dotted path,
 * thrown to the one `onError`.
 * @example new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
 */
export const validationHook: OpenAPIHonoOptions<AppEnv>['defaultHook'] = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0] as Issue | undefined;
  if (!issue) throw apiError('parameter_invalid');
  throw issueError(issue);
};
