/** How a zod issue is named in `parameter_invalid`: `param` and message. */
import { apiError } from '../errors.js';

export interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** The dotted path of a zod issue (API document section 7: e.g. `config.episode_count`). */
export function issueParam(issue: Issue): string | null {
  const parts = issue.path.map(String);
  // An unknown key is reported on its parent; the parameter at fault is the key itself.
  const unknown = issue.code === 'unrecognized_keys' ? issue.keys?.[0] : undefined;
  if (unknown) parts.push(unknown);
  return parts.length > 0 ? parts.join('.') : null;
}

export function issueMessage(issue: Issue, param: string | null): string {
  if (issue.code === 'unrecognized_keys') return `Received unknown parameter: '${param}'.`;
  if (param === null) return `Invalid request body: ${issue.message}.`;
  return `Invalid value for '${param}': ${issue.message}.`;
}

/**
 * 400 `parameter_invalid` for a zod issue, `param` under `prefix` when the schema checked a part.
 * @example throw issueError(parsed.error.issues[0]!, 'options.emulator.')
 */
export function issueError(issue: Issue, prefix = '') {
  const param = prefix ? `${prefix}${issueParam(issue)}` : issueParam(issue);
  return apiError('parameter_invalid', { param, message: issueMessage(issue, param) });
}
