/** How a zod issue is named in `parameter_invalid`: `param` and message. */
import { apiError } from './errors.js';

export interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/**
 * 400 `parameter_invalid` for a zod issue, `param` its dotted path (API document section 7: e.g.
 * `config.episode_count`) under `prefix` when the schema checked a part.
 * @example throw issueError(parsed.error.issues[0]!, 'options.emulator.')
 */
export function issueError(issue: Issue, prefix = '') {
  const parts = issue.path.map(String);
  // An unknown key is reported on its parent; the parameter at fault is the key itself.
  const unknown = issue.code === 'unrecognized_keys';
  if (unknown && issue.keys?.[0]) parts.push(issue.keys[0]);
  const path = parts.length > 0 ? parts.join('.') : null;
  const param = prefix ? `${prefix}${path}` : path;
  const message = unknown
    ? `Received unknown parameter: '${param}'.`
    : param === null
      ? `Invalid request body: ${issue.message}.`
      : `Invalid value for '${param}': ${issue.message}.`;
  return apiError('parameter_invalid', { param, message });
}
