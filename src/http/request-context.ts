import type { Context } from 'hono';
import { setAnswerHeader } from '../core/answer-headers.js';
import { DEFAULT_VERSION, type ServiceVersion, SUPPORTED_VERSIONS } from '../core/contract.js';
import type { AppEnv } from '../core/env.js';
import { joinedHeader } from '../core/request-header.js';
import type { Deps } from '../engine/deps.js';

/**
 * First in the pipeline: the request's deterministic `req_` id and served version, and
 * `X-Request-Id` and `Service-Version` on every response, errors included (API document sections
 * 2.1 and 9.3); an unsupported version is served at the default until `checkVersion` rejects it.
 * The headers are set before the response is made, on Node's response where Node serves the call
 * (core/answer-headers.ts), so every answer carries them (setting them on a response Hono made
 * would make Hono rebuild it).
 * It never throws and does nothing once the call is answered, so it runs as part of the first
 * layer (pipeline.ts), not as a Hono middleware of its own.
 * @example const setContext = requestContext(deps); setContext(c)
 */
export function requestContext(deps: Deps): (c: Context<AppEnv>) => void {
  return (c) => {
    c.set('deps', deps);
    c.set('requestId', deps.ids.requestId(deps.systemClock.now()));
    setAnswerHeader(c, 'X-Request-Id', c.get('requestId'));
    const asked = joinedHeader(c, 'service-version');
    const known = SUPPORTED_VERSIONS.find((v) => v === asked);
    serveAt(c, (known ?? DEFAULT_VERSION) as ServiceVersion);
    if (asked !== undefined && !known) c.set('unsupportedVersion', asked);
  };
}

/** The version the request is answered at, and its `Service-Version` header. */
export function serveAt(c: Context<AppEnv>, version: ServiceVersion): void {
  c.set('version', version);
  setAnswerHeader(c, 'Service-Version', version);
}
