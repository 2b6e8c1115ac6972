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
