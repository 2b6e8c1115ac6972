/** Fixed ids a caller may give a seeded record (DESIGN.md section 5), checked the same everywhere. */
import { z } from '@hono/zod-openapi';
import { invalidParam, MESSAGES } from './errors.js';

/**
 * A fixed id for a seeded record: `<prefix>_` and up to 64 letters and digits.
 * @example seedId('acct') // accepts 'acct_SDK1'
 */
export const seedId = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`))
    .optional();

/**
 * 400 naming `id` when a resource of that id exists.
 * @example assertNewId(store.runs.exists(id), id)
 */
export function assertNewId(exists: boolean, id: string): void {
  if (exists) throw invalidParam('id', MESSAGES.alreadyExists(`'${id}'`));
}

/**
 * 400 naming `id` when a given id lacks the prefix of `what` (or a legacy one).
 * @example assertIdPrefix(input.id, 'environment', ['env'])
 */
export function assertIdPrefix(id: string | undefined, what: string, prefixes: readonly string[]) {
  if (id !== undefined && !prefixes.some((p) => id.startsWith(`${p}_`)))
    throw invalidParam('id', MESSAGES.idPrefix(what, prefixes[0]!));
}
