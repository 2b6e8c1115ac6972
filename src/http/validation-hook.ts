import type { Hook } from '@hono/zod-openapi';
import { apiError } from '../errors.js';
import type { AppEnv } from './env.js';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** The dotted path of a zod issue (API document section 7: e.g. `config.episode_count`). */
export function issueParam(issue: Issue): string | null {
  const path = issue.path.map(String);
  // An unknown key is reported on its parent; the parameter at fault is the key itself.
  if (issue.code === 'unrecognized_keys' && issue.keys?.[0]) path.push(issue.keys[0]);
  return path.length > 0 ? path.join('.') : null;
}

export function issueMessage(issue: Issue, param: string | null): string {
  if (issue.code === 'unrecognized_keys') return `Received unknown parameter: '${param}'.`;
  if (param === null) return `Invalid request body: ${issue.message}.`;
  return `Invalid value for '${param}': ${issue.message}.`;
}

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
