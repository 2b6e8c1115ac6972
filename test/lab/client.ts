/**
 * A small client of the API as a careful SDK writes it (issue 38's "Done when"): it reuses a
 * POST's Idempotency-Key on every retry, honours Retry-After, backs off with jitter, gives up after
 * a bound and does not retry a 409. Each `Flaw` puts one fault of behaviour into it, so a test can
 * show the client report catching exactly that one.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

export type Flaw = 'new_key_per_retry' | 'ignores_retry_after' | 'retries_409' | 'retry_storm';

/** One request of the suite: what any client under test sends (this one, ky, p-retry). */
export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
}

/** Sends a request, retrying as its client does; answers the last status (0: no answer). */
export type Sender = (req: Request) => Promise<number>;

const RETRYABLE = [429, 502, 503, 504];

/** A seeded random in [0, 1) (mulberry32): the same waits on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ClientOptions {
  apiUrl: string;
  secret: string;
  flaw?: Flaw;
  seed?: number;
}

/**
 * The careful client: at most 4 retries (the storm: until it succeeds), waits of
 * 30 ms x 2^n with "equal jitter" (half fixed, half random), capped at 200 ms, or Retry-After.
 */
export function carefulClient({ apiUrl, secret, flaw, seed = 38 }: ClientOptions): Sender {
  const random = seeded(seed);
  const maxRetries = flaw === 'retry_storm' ? 50 : 4;
  return async (req) => {
    let key = req.idempotencyKey ?? (req.method === 'POST' ? randomUUID() : undefined);
    for (let retry = 0; ; retry++) {
      const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
      if (req.body !== undefined) headers['content-type'] = 'application/json';
      if (key) headers['idempotency-key'] = key;
      const res = await fetch(`${apiUrl}${req.path}`, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      }).catch(() => null);
      await res?.arrayBuffer();
      const status = res?.status ?? 0;
      const retryable =
        status === 0 || RETRYABLE.includes(status) || (flaw === 'retries_409' && status === 409);
      if (!retryable || retry === maxRetries) return status;
      const retryAfter = Number(res?.headers.get('retry-after') ?? Number.NaN);
      const backoff = Math.min(200, 30 * 2 ** retry);
      const wait =
        Number.isFinite(retryAfter) && flaw !== 'ignores_retry_after'
          ? retryAfter * 1000
          : backoff / 2 + (random() * backoff) / 2;
      await sleep(wait);
      if (flaw === 'new_key_per_retry' && key) key = randomUUID();
    }
  };
}
