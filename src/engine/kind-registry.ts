/** The registered kinds as one lookup (DESIGN.md section 7), and every list derived from them. */
import { ERROR_CATALOG } from '../core/errors.js';
import type { KindError, RegisteredKind, RunKind } from './run-kind.js';

export interface Kinds {
  /** In the order of registration (the API document's section 1 table). */
  readonly list: readonly RegisteredKind[];
  /** By name; a kind this emulator does not register is absent. */
  readonly byName: Readonly<Record<string, RunKind>>;
  registered(name: string): RegisteredKind | undefined;
  /** The kind whose id prefix (or legacy prefix) `id` carries. */
  ofId(id: string): RunKind | undefined;
}

/** @example const kinds = kindRegistry(REGISTERED_KINDS); kinds.ofId(id)?.name */
export function kindRegistry(list: readonly RegisteredKind[]): Kinds {
  const byName = Object.fromEntries(list.map(({ kind }) => [kind.name, kind]));
  return {
    list,
    byName,
    registered: (name) => list.find(({ kind }) => kind.name === name),
    ofId(id) {
      const prefix = id.slice(0, id.indexOf('_'));
      return list.find(
        ({ kind }) => kind.prefix === prefix || kind.legacyPrefixes?.includes(prefix),
      )?.kind;
    },
  };
}

/** The scopes of the areas that are not run kinds (DESIGN.md section 3). */
const AREA_SCOPES = ['scenarios:write', 'scenarios:read', 'webhooks:write', 'webhooks:read'];
const READ_ONLY_SCOPES = ['usage:read', 'requests:read'];

/** Every scope a key may hold (API document section 5): each kind's, then the other areas'. */
export function scopesOf(kinds: Kinds): string[] {
  const ofKinds = kinds.list.flatMap(({ kind }) => [`${kind.scope}:write`, `${kind.scope}:read`]);
  return [...ofKinds, ...AREA_SCOPES, ...READ_ONLY_SCOPES];
}

/** The scopes of a key that may do everything: every `write` (which implies `read`) and the rest. */
export function fullScopes(kinds: Kinds): string[] {
  return [...scopesOf(kinds).filter((s) => s.endsWith(':write')), ...READ_ONLY_SCOPES];
}

/** Every error code the emulator answers: the catalog's (`src/core/errors.ts`) and the kinds' own. */
export function errorCatalog(kinds: Kinds): Readonly<Record<string, KindError>> {
  return Object.assign({}, ERROR_CATALOG, ...kinds.list.map((r) => r.errors ?? {}));
}
