import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../api/env.js';
import { apiError } from '../errors.js';
import { checkJsonDepth } from './json-depth.js';

/** DESIGN.md section 3: a body over 1 MiB answers 413 `request_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw apiError('request_too_large');
  },
});

/**
 * 413 over 1 MiB (Hono's `bodyLimit`: `Content-Length`, or bytes as they arrive), then the depth.
 * @example app.use(bodyChecks)
 */
export const bodyChecks: MiddlewareHandler<AppEnv> = (c, next) =>
  limit(c, () => checkJsonDepth(c, next));
