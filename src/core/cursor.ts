import { invalidParam, MESSAGES } from './errors.js';

/**
 * An id cursor (`after`) must name one of the caller's items, else 400 `parameter_invalid` (API
 * document section 7); another account's id answers like an unknown one (DESIGN.md section 3).
 * @example checkCursor(after, (id) => store.scenarios.owns(accountId, id), 'a scenario')
 */
export function checkCursor(
  after: string | undefined,
  owns: (id: string) => boolean,
  kind: string,
): void {
  if (after === undefined || owns(after)) return;
  throw invalidParam('after', MESSAGES.badCursor(after, kind));
}
