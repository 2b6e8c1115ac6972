/**
 * Two tiny SDK-style clients, to show that the emulator reproduces the bugs it exists for: the
 * naive one gives up on the first 429 or 502; the retrying one honours `Retry-After`, retries
 * 5xx and dropped connections, and sends an `Idempotency-Key` on every POST so a retry has no
 * second effect.
 */
type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface Reply {
  status: number;
  json: any;
  attempts: number;
}

async function once(fetch: Fetch, secret: string, method: string, path: string, init: RequestInit) {
  return fetch(path, {
    ...init,
    method,
    headers: { authorization: `Bearer ${secret}`, ...(init.headers as Record<string, string>) },
  });
}

export function naiveClient(fetch: Fetch, secret: string) {
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await once(fetch, secret, method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
    });
    return { status: res.status, json: await res.json(), attempts: 1 };
  };
}

export function retryingClient(
  fetch: Fetch,
  secret: string,
  /** Waits `seconds`: real time for a real server, a clock advance against the emulator. */
  sleep: (seconds: number) => Promise<void>,
  maxAttempts = 6,
) {
  let keys = 0;
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST') headers['idempotency-key'] = `sdk-${++keys}`;
    for (let attempt = 1; ; attempt++) {
      let res: Response | null;
      try {
        res = await once(fetch, secret, method, path, {
          body: body === undefined ? undefined : JSON.stringify(body),
          headers,
        });
        if (res.type === 'error') res = null;
      } catch {
        res = null;
      }
      const retryable = res === null || res.status === 429 || res.status >= 500;
      if (!retryable || attempt === maxAttempts) {
        return { status: res?.status ?? 0, json: res ? await res.json() : null, attempts: attempt };
      }
      const retryAfter = Number(res?.headers.get('retry-after') ?? Number.NaN);
      await sleep(Number.isFinite(retryAfter) ? retryAfter : 2 ** (attempt - 1));
    }
  };
}
