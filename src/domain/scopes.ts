/** Scopes of DESIGN.md section 3, in the `resource:verb` form of API document section 5. */
export const ALL_SCOPES = [
  'evaluations:write',
  'evaluations:read',
  'scenarios:write',
  'scenarios:read',
  'twins:write',
  'twins:read',
  'webhooks:write',
  'webhooks:read',
  'augmentations:write',
  'augmentations:read',
  'usage:read',
  'requests:read',
] as const;

/** API document section 5.4: a `write` scope implies `read` on the same resource. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  const [resource, verb] = needed.split(':');
  return verb === 'read' && granted.includes(`${resource}:write`);
}

export function isKnownScope(scope: string): boolean {
  return (ALL_SCOPES as readonly string[]).includes(scope);
}
