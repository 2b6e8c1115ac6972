import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { SUPPORTED_VERSIONS } from '../contract/common.js';
import { apiError, MESSAGES } from '../errors.js';

/**
 * API document section 9.2: `Service-Version`, when sent, must be a supported version; otherwise
 * 400 `unsupported_version` naming the header. Both versions are accepted on every operation
 * (DESIGN.md section 3); `--strict-versions` narrows per operation (pipeline.ts).
 */
export function checkVersion(c: Context<AppEnv>): void {
  const asked = c.get('unsupportedVersion');
  if (asked === undefined) return;
  throw apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.unsupportedVersion(asked, SUPPORTED_VERSIONS),
  });
}
