/**
 * An answer as a bundle records it and a replay compares it: status, headers, and the digest of
 * the body with what differs between two runs of the same calls masked: request ids (`req_*`),
 * secrets, wall times (`wall_at`, `wall_ms`, `duration_ms`, `uptime_s`, a snapshot's
 * and a webhook delivery's `created_at`) and the `date` and `server-timing` headers. Everything else is compared as sent.
 */
import { createHash } from 'node:crypto';
import { headerOf, lightResponseCache, sentHeaders } from '../../core/answer-headers.js';
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

/**
 * An answer's headers as names and values in turn, in the order its `Headers` iterates them
 * (lower-case names, sorted): a flat list of the strings the answer already holds (a replay's
 * answers; a recorded call's are `sentHeaders`, core/answer-headers.ts).
 */
export function flatHeaders(headers: Headers): string[] {
  const flat: string[] = [];
  headers.forEach((value, name) => {
    flat.push(name, value);
  });
  return flat;
}

/** The headers compared, from `flatHeaders`: in order, without `date` and `server-timing`. */
export function answerHeaders(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!;
    if (!LEFT_OUT.includes(name)) out.push([name, flat[i + 1]!.replace(REQUEST_ID, 'req_*')]);
  }
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
 * string or bytes (core/answer-headers.ts), which it writes out itself; reading it through
 * `clone()` would make it build a whole Response, and the journal's detail could then no longer
 * read the answer. `undefined` when the response is not of that kind.
 */
function heldBody(
  cache: unknown[] | undefined,
): Uint8Array | string | null | 'streamed' | undefined {
  if (!cache) return undefined;
  const held: unknown = cache[1];
  if (held === null || typeof held === 'string' || held instanceof Uint8Array) return held;
  return 'streamed';
}

/**
 * An answer as a recording holds it until a bundle is read: its status, its headers (`flatHeaders`)
 * and body as sent, so that a call costs no masking and no digest while the suite runs
 * (`digestedAnswer` does both later), and keeps alive only strings the answer made.
 */
export interface HeldAnswer {
  /** Null for a dropped connection. */
  status: number | null;
  /** Null for a dropped connection. */
  headers: readonly string[] | null;
  body: Uint8Array | string | null | 'streamed';
  path: string;
}

/**
 * The answer of a call as held: null status for a dropped connection; its headers as sent, with
 * those set on Node's response (`onNode`: core/answer-headers.ts). A body the response holds is
 * kept as it is, at once; any other is read from a clone (under `app.request()`, whose caller
 * reads the original), except a stream, which is compared by status and headers only.
 * @example const held = heldAnswer(c.res, '/v1/keys/me', false, nodeHeaders(c))
 */
export function heldAnswer(
  res: Response,
  path: string,
  dropped: boolean,
  onNode: readonly string[],
  /** @hono/node-server's cache symbol, where the caller knows it (else it is looked for). */
  cacheSymbol?: symbol,
): HeldAnswer | Promise<HeldAnswer> {
  if (dropped) return { status: null, headers: null, body: null, path };
  const cache = lightResponseCache(res, cacheSymbol);
  const body = heldBody(cache);
  const headers = sentHeaders(res, onNode, cache);
  if (body !== undefined) return { status: res.status, headers, body, path };
  return readAnswer(res, path, headers);
}

/** `heldAnswer` of a response that holds no body of its own. */
async function readAnswer(res: Response, path: string, headers: string[]): Promise<HeldAnswer> {
  let body: Uint8Array | null | 'streamed';
  if (res.body === null) body = null;
  else if (res.headers.get('content-type')?.includes('event-stream')) body = 'streamed';
  else body = new Uint8Array(await res.clone().arrayBuffer());
  return { status: res.status, headers, body, path };
}

/** The bytes a held answer keeps alive: what the recording counts against its limit. */
export function heldBytes(held: HeldAnswer): number {
  const { body } = held;
  if (typeof body === 'string') return body === 'streamed' ? 0 : body.length;
  return body === null ? 0 : body.byteLength;
}

/** A held answer as a bundle records it: headers compared, the body's masked digest. */
export function digestedAnswer(held: HeldAnswer): RecordedAnswer {
  if (held.headers === null) return { status: null, headers: [], body: null };
  const { body } = held;
  const type = headerOf(held.headers, 'content-type');
  return {
    status: held.status,
    headers: answerHeaders(held.headers),
    body: body === null || body === 'streamed' ? body : bodyDigest(body, type, held.path),
  };
}
