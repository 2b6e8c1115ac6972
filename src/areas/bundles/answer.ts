/**
 * An answer as a bundle records it and a replay compares it: status, headers, and the digest of
 * the body with what differs between two runs of the same calls masked: request ids (`req_*`),
 * secrets, wall times (`wall_at`, `wall_ms`, `duration_ms`, `uptime_s`, a snapshot's
 * and a webhook delivery's `created_at`) and the `date` and `server-timing` headers. Everything else is compared as sent.
 */
import { createHash } from 'node:crypto';
import type { RecordedAnswer } from './bundle-contract.js';

const REQUEST_ID = /req_[0-9A-HJKMNP-TV-Z]{26}/g;
const SECRET = /("(?:secret|password|token|download_token)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const VALUE = '("(?:[^"\\\\]|\\\\.)*"|-?[0-9.eE+-]+|null)';
const WALL = new RegExp(`("(?:wall_at|wall_ms|duration_ms|uptime_s)"\\s*:\\s*)${VALUE}`, 'g');
/** A snapshot's and a webhook delivery's `created_at` are wall time; every other is virtual. */
const CREATED = new RegExp(`("created_at"\\s*:\\s*)${VALUE}`, 'g');
const LEFT_OUT: readonly string[] = ['date', 'server-timing'];

/** A body's text with what differs between two runs of the same calls masked. */
export function maskedText(text: string, path: string): string {
  let out = text.replace(REQUEST_ID, 'req_*').replace(SECRET, '$1"*"').replace(WALL, '$1"*"');
  if (/^\/_control\/(snapshots|webhook_deliveries)/.test(path)) out = out.replace(CREATED, '$1"*"');
  return out;
}

/** The headers compared: lower-case, in order, without `date` and `server-timing`. */
export function answerHeaders(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of headers)
    if (!LEFT_OUT.includes(name)) out.push([name, value.replace(REQUEST_ID, 'req_*')]);
  return out;
}

/** The digest of a body as the bundle keeps it: text masked (JSON, plain text), bytes as sent. */
export function bodyDigest(
  body: Uint8Array | string,
  contentType: string | null,
  path: string,
): { sha256: string; bytes: number } {
  const textual = contentType !== null && /json|text/.test(contentType);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const hashed = textual ? Buffer.from(maskedText(Buffer.from(bytes).toString(), path)) : bytes;
  return { sha256: createHash('sha256').update(hashed).digest('hex'), bytes: bytes.byteLength };
}

/**
 * The body a response holds without reading it: @hono/node-server's lightweight Response keeps a
 * string or bytes under a symbol (`Symbol(cache)`), which it writes out itself; reading it
 * through `clone()` would make it build a whole Response, and the journal's detail could then no
 * longer read the answer. `undefined` when the response is not of that kind.
 */
function heldBody(res: Response): Uint8Array | string | null | 'streamed' | undefined {
  const symbol = Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  if (!symbol) return undefined;
  const held = (res as unknown as Record<symbol, unknown[]>)[symbol]?.[1];
  if (held === null || typeof held === 'string' || held instanceof Uint8Array) return held;
  return 'streamed';
}

/**
 * The answer of a call as recorded: null status for a dropped connection. A body the response
 * holds is digested at once; any other is read from a clone (under `app.request()`, whose caller
 * reads the original), except a stream, which is compared by status and headers only.
 * @example await recordedAnswer(c.res, '/v1/keys/me', false)
 */
export async function recordedAnswer(
  res: Response,
  path: string,
  dropped: boolean,
): Promise<RecordedAnswer> {
  if (dropped) return { status: null, headers: [], body: null };
  const headers = answerHeaders(res.headers);
  const type = res.headers.get('content-type');
  let body = heldBody(res);
  if (body === undefined) {
    const native = res.body;
    if (native === null) body = null;
    else if (type?.includes('event-stream')) body = 'streamed';
    else body = new Uint8Array(await res.clone().arrayBuffer());
  }
  return {
    status: res.status,
    headers,
    body: body === null || body === 'streamed' ? body : bodyDigest(body, type, path),
  };
}
