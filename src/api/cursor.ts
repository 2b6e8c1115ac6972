import { apiError, MESSAGES } from '../errors.js';

/**
 * An id cursor (`after`) must name one of the caller's items: anything else is a malformed field
 * (API document section 7, 400 `parameter_invalid` named in `param`), and another account's id
 * answers exactly like an unknown one, so the cursor reveals nothing (DESIGN.md section 3).
 * @example checkCursor(after, (id) => store.runs.owns(accountId, 'twin', id), 'a twin')
 */
export function checkCursor(
  after: string | undefined,
  owns: (id: string) => boolean,
  kind: string,
): void {
  if (after === undefined || owns(after)) return;
  throw apiError('parameter_invalid', {
    param: 'after',
    message: MESSAGES.badCursor(after, kind),
  });
}
