import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { SUPPORTED_VERSIONS } from '../contract/common.js';
import { apiError, MESSAGES } from '../errors.js';

/**
 * API document section 9.2: a sent `Service-Version` must be supported, else 400
 * `unsupported_version`; both are accepted everywhere unless `--strict-versions` (DESIGN.md 3).
 */
export function checkVersion(c: Context<AppEnv>): void {
  const asked = c.get('unsupportedVersion');
  if (asked === undefined) return;
  throw apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.unsupportedVersion(asked, SUPPORTED_VERSIONS),
  });
}
