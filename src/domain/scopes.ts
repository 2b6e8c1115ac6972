import { ALL_SCOPES } from '../contract/scopes.js';

export { ALL_SCOPES };

/** API document section 5.4: a `write` scope implies `read` on the same resource. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  const [resource, verb] = needed.split(':');
  return verb === 'read' && granted.includes(`${resource}:write`);
}

export function isKnownScope(scope: string): boolean {
  return (ALL_SCOPES as readonly string[]).includes(scope);
}
