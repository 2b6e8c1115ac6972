import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { ServiceVersion } from '../core/contract.js';
import type { AppEnv } from '../core/env.js';
import { apiError, invalidParam, MESSAGES } from '../core/errors.js';
import { joinedHeader } from '../core/request-header.js';
import { serveAt } from './request-context.js';

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
 * `Idempotency-Key` on a POST (DESIGN.md section 3), per account: within 24 virtual hours the same
 * request replays its first 2xx byte for byte (`Idempotent-Replayed: true`); a different one (once
 * valid), or one while the first is in flight, answers 409. Failures are not kept, so they can be
 * retried. The request is its method, path and body; an operation that takes no body (a resume)
 * reads none, so whatever body was sent is not part of it.
 * @example idempotency(route.request.body.content['application/json'].schema)
 */
export function idempotency(bodySchema: BodySchema | undefined): MiddlewareHandler<AppEnv> {
  // A call without a key is handed on as it is: not from an async function, whose promise would
  // take the handler's answer (or its rejection) a step later.
  return (c, next) => {
    const key = joinedHeader(c, 'idempotency-key');
    return key === undefined ? next() : keyed(c, next, key);
  };

  async function keyed(
    c: Context<AppEnv>,
    next: Next,
    key: string,
  ): ReturnType<MiddlewareHandler<AppEnv>> {
    if (!KEY_FORMAT.test(key)) {
      throw invalidParam('Idempotency-Key', MESSAGES.idempotencyKeyFormat);
    }
    const { store, engine } = c.get('deps');
    const { account } = c.get('auth');
    const now = c.get('now');
    const text = bodySchema ? await c.req.text() : '';
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n${text}`)
      .digest('hex');
    const slot = `${account.id}\0${key}`;
    const reused = (message: string) =>
      apiError('idempotency_key_reused', { param: 'Idempotency-Key', message });
    if (engine.idempotencyInFlight.has(slot)) throw reused(MESSAGES.keyInFlight);
    const found = store.idempotency.get(account.id, key);
    if (found && found.createdAtMs + IDEMPOTENCY_TTL_MS > now) {
      if (found.requestHash !== requestHash) {
        // Validation comes before the idempotency check (DESIGN.md section 3): let it answer 400.
        if (!parsesAs(bodySchema, text)) return next();
        throw reused(MESSAGES.keyReused);
      }
      c.set('replayed', true);
      serveAt(c, found.headers['service-version'] as ServiceVersion);
      return c.body(new Uint8Array(found.body), found.status as 200, {
        'Content-Type': found.headers['content-type'] ?? 'application/json',
        'Idempotent-Replayed': 'true',
      });
    }
    engine.idempotencyInFlight.add(slot);
    try {
      await next();
    } finally {
      engine.idempotencyInFlight.delete(slot);
    }
    await keep(c, key, requestHash);
  }
}

/** A successful answer, kept under its key for a later replay. */
async function keep(c: Context<AppEnv>, key: string, requestHash: string): Promise<void> {
  const res = c.res;
  if (res.status < 200 || res.status >= 300) return;
  const { store } = c.get('deps');
  const { account } = c.get('auth');
  const now = c.get('now');
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
}
