import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { SUPPORTED_VERSIONS } from '../contract/common.js';
import { type ApiError, apiError, MESSAGES } from '../errors.js';

/**
 * API document section 9.2: `Service-Version`, when sent, must be a supported version; otherwise
 * 400 `unsupported_version` naming the header, answered (the pipeline renders it), not thrown.
 * Both versions are accepted on every operation (DESIGN.md section 3); `--strict-versions`
 * narrows per operation in the pipeline (`checkOperationVersion`).
 */
export function checkVersion(c: Context<AppEnv>): ApiError | undefined {
  const asked = c.get('unsupportedVersion');
  if (asked === undefined) return undefined;
  return apiError('unsupported_version', {
    param: 'Service-Version',
    message: MESSAGES.unsupportedVersion(asked, SUPPORTED_VERSIONS),
  });
}
