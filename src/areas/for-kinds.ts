import { type Kinds, kindRegistry } from '../engine/kind-registry.js';
import { REGISTERED_KINDS } from '../kinds/index.js';

/**
 * `build` for an emulator's kinds, made once for the registered kinds (as the calling module
 * loads) and afresh for another list (`createEmulator({ kinds })`). For what is derived from the
 * kinds alone and keeps no state of an emulator's, such as a route's schemas: most emulators serve
 * every kind, and building those for each one took a fifth of a new emulator's time.
 * @example const contract = forKinds((kinds) => usageContract(collectionsOf(kinds))); contract(deps.kinds)
 */
export function forKinds<T>(build: (kinds: Kinds) => T): (kinds: Kinds) => T {
  const registered = build(kindRegistry(REGISTERED_KINDS));
  return (kinds) => (kinds.list === REGISTERED_KINDS ? registered : build(kinds));
}
