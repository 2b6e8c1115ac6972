import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import type { ServiceVersion } from '../contract/common.js';
import { apiError, MESSAGES } from '../errors.js';
import { type Answer, answering } from './answer.js';
import { renderError } from './render-error.js';

/** Keys are honoured for 24 virtual hours (DESIGN.md section 3). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

export interface BodySchema {
  safeParse(value: unknown): { success: boolean };
}

function parsesAs(schema: BodySchema | undefined, text: string): boolean {
  if (!schema) return true;
  try {
    return schema.safeParse(text === '' ? undefined : JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/**
 * `Idempotency-Key` on a POST (DESIGN.md section 3), per account: the same key with the same
 * method, path and body within 24 virtual hours replays the first successful response byte for
 * byte with `Idempotent-Replayed: true` and no second effect; with a different request it is 409
 * `idempotency_key_reused` (after validation: an invalid body still answers 400). Only 2xx
 * responses are kept, so a call that failed can be retried under the same key. A second call
 * while the first is in flight is 409 too. Without the header, `route` answers directly.
 * @example return guard.isPost ? idempotent(c, route, guard.bodySchema) : route()
 */
export function idempotent(
  c: Context<AppEnv>,
  route: () => Answer,
  bodySchema: BodySchema | undefined,
): Answer {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return route();
  if (!KEY_FORMAT.test(key)) {
    const err = apiError('parameter_invalid', {
      param: 'Idempotency-Key',
      message: MESSAGES.idempotencyKeyFormat,
    });
    return renderError(err, c);
  }
  return replayOrRun(c, key, route, bodySchema);
}

async function replayOrRun(
  c: Context<AppEnv>,
  key: string,
  route: () => Answer,
  bodySchema: BodySchema | undefined,
): Promise<Response> {
  const { store, idempotencyInFlight } = c.get('deps');
  const { account } = c.get('auth');
  const now = c.get('now');
  const text = await c.req.text();
  const requestHash = createHash('sha256')
    .update(`${c.req.method} ${c.req.path}\n${text}`)
    .digest('hex');
  const slot = `${account.id}\0${key}`;
  if (idempotencyInFlight.has(slot)) {
    throw apiError('idempotency_key_reused', {
      param: 'Idempotency-Key',
      message: MESSAGES.keyInFlight,
    });
  }
  const found = store.idempotency.get(account.id, key);
  if (found && found.createdAtMs + IDEMPOTENCY_TTL_MS > now) {
    if (found.requestHash === requestHash) {
      c.set('replayed', true);
      c.set('version', found.headers['service-version'] as ServiceVersion);
      return c.body(new Uint8Array(found.body), found.status as 200, {
        'Content-Type': found.headers['content-type'] ?? 'application/json',
        'Idempotent-Replayed': 'true',
      });
    }
    if (parsesAs(bodySchema, text)) {
      throw apiError('idempotency_key_reused', {
        param: 'Idempotency-Key',
        message: MESSAGES.keyReused,
      });
    }
    // Validation comes before the idempotency check (DESIGN.md section 3): let it answer 400.
    return route();
  }

  idempotencyInFlight.add(slot);
  let res: Response;
  try {
    // The route's own failure is its answer here, as Hono's onError would have made it.
    res = await answering(c, route);
  } finally {
    idempotencyInFlight.delete(slot);
  }
  if (res.status < 200 || res.status >= 300) return res;
  const body = Buffer.from(await res.clone().arrayBuffer());
  store.tx(() => {
    store.idempotency.prune(account.id, now - IDEMPOTENCY_TTL_MS);
    store.idempotency.put({
      accountId: account.id,
      key,
      requestHash,
      status: res.status,
      headers: {
        'content-type': res.headers.get('content-type') ?? 'application/json',
        'service-version': c.get('version'),
      },
      body,
      createdAtMs: now,
    });
  });
  return res;
}
