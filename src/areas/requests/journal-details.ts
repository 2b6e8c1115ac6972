/**
 * What the inspector's detail pane shows of a journaled call beyond its entry (issue 30), for the
 * newest calls: its request (headers, query, JSON body), its answer, its error envelope. A call
 * keeps references to what it already made (Node's raw headers, the URL, the answer itself), read,
 * cut to size and masked only when a detail is asked for. They are kept for few calls because
 * whatever a call keeps alive past a young-generation collection costs every call (about 9% of
 * `GET /v1/keys/me`'s CPU when kept for 1,000 calls, 6% of a 404's for 1,000 errors' envelopes).
 * Not written to a `--db` file.
 */

import { sentHeaders } from '../../core/answer-headers.js';

/** The newest calls whose detail is kept (at most the journal's size). */
export const DETAILED_CALLS = 100;
/** Characters kept of a query, a request body or an answer body; the rest is cut. */
export const DETAIL_TEXT_MAX = 2048;

export interface JournalDetail {
  /** Request headers as Node's flat name, value list, as they came. */
  requestHeaders: readonly string[];
  /** The request's path and query. */
  url: string;
  /** The JSON text the request carried (cut), if the emulator read one. */
  requestBody: string | null;
  /** The error envelope answered, if any. */
  error: unknown;
  /** The answer itself (not an archive's, not a dropped call's). */
  response: Response | null;
  /** Headers the answer got on Node's response (`nodeHeaders`, core/answer-headers.ts). */
  nodeHeaders: readonly string[];
}

/** A detail as the control API shows it: cut to size, secrets masked. */
export interface DetailView {
  request: { query: string; headers: Record<string, string>; body: string | null };
  response: { headers: Record<string, string>; body: string | null } | null;
  error: unknown;
}

/** Header values never shown: the caller's credentials. */
const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'cookie',
  'x-control-token',
  'proxy-authorization',
];
/** JSON fields whose string value is a secret (a key's, a webhook endpoint's signing secret). */
const SECRET_FIELDS = /("(?:secret|password|token|download_token)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** `Bearer svc_test_...` as `Bearer [masked]`: the scheme stays, so a malformed one is seen. */
function maskHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.includes(name)) return value;
  const scheme = /^(\w+)\s+\S/.exec(value)?.[1];
  return scheme ? `${scheme} [masked]` : '[masked]';
}

/**
 * Text cut after `DETAIL_TEXT_MAX` characters, as a copy: a slice would keep the whole text
 * alive while the journal holds it.
 */
export function cutText(text: string): string {
  if (text.length <= DETAIL_TEXT_MAX) return text;
  const kept = Buffer.from(text.slice(0, DETAIL_TEXT_MAX)).toString();
  return `${kept}...[truncated ${text.length - DETAIL_TEXT_MAX} chars]`;
}

/** JSON text cut to size, the values of secret fields masked. */
function masked(text: string): string {
  return cutText(text).replace(SECRET_FIELDS, '$1"[masked]"');
}

function headerRecord(pairs: Iterable<readonly [string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const shown = maskHeader(key, value);
    out[key] = out[key] === undefined ? shown : `${out[key]}, ${shown}`;
  }
  return out;
}

/** Node's flat `rawHeaders` (name, value, name, value ...) as pairs. */
function* pairs(flat: readonly string[]): Generator<[string, string]> {
  for (let i = 0; i + 1 < flat.length; i += 2) yield [flat[i]!, flat[i + 1]!];
}

/** The answer's headers as sent and (JSON) body, read from the kept answer; null if it cannot be. */
async function answerOf(res: Response, onNode: readonly string[]): Promise<DetailView['response']> {
  try {
    const headers = headerRecord(pairs(sentHeaders(res, onNode)));
    const json = headers['content-type']?.includes('json');
    return { headers, body: json ? masked(await res.clone().text()) : null };
  } catch {
    return null;
  }
}

/** The newest `capacity` values by request id, oldest overwritten first. */
class Ring<T> {
  private readonly ids: (string | undefined)[] = [];
  private readonly values: (T | undefined)[] = [];
  private next = 0;

  constructor(readonly capacity: number) {}

  put(id: string, value: T): void {
    if (this.capacity === 0) return;
    this.ids[this.next] = id;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
  }

  get(id: string): T | undefined {
    const i = this.ids.indexOf(id);
    return i < 0 ? undefined : this.values[i];
  }

  forget(gone: Set<string>): void {
    for (let i = 0; i < this.ids.length; i++)
      if (this.ids[i] !== undefined && gone.has(this.ids[i]!)) {
        this.ids[i] = undefined;
        this.values[i] = undefined;
      }
  }
}

/** The newest calls' details, by request id. */
export class JournalDetails {
  private readonly calls: Ring<JournalDetail>;

  /** `journalSize`: no more is kept than the journal keeps entries. */
  constructor(journalSize: number) {
    this.calls = new Ring(Math.min(journalSize, DETAILED_CALLS));
  }

  record(requestId: string, detail: JournalDetail): void {
    this.calls.put(requestId, detail);
  }

  /** The call's detail as shown (masked, cut); undefined once it is no longer kept. */
  async view(requestId: string): Promise<DetailView | undefined> {
    const d = this.calls.get(requestId);
    if (!d) return undefined;
    const q = d.url.indexOf('?');
    return {
      request: {
        query: q < 0 ? '' : cutText(d.url.slice(q + 1)),
        headers: headerRecord(pairs(d.requestHeaders)),
        body: d.requestBody === null ? null : masked(d.requestBody),
      },
      response: d.response ? await answerOf(d.response, d.nodeHeaders) : null,
      error: d.error ?? null,
    };
  }

  /** Forgets the details of these calls (their entries were removed). */
  forget(requestIds: Iterable<string>): void {
    this.calls.forget(new Set(requestIds));
  }
}
