/**
 * What the inspector's detail pane shows of a journaled call beyond its entry (issue 30): the
 * request's headers, query and body, and the answer's headers and body, kept for the newest
 * calls only and with every secret masked when read. Not written to a `--db` file.
 */

/** The newest calls whose request and answer are kept (at most the journal's size). */
export const DETAILED_CALLS = 1000;
/** Characters kept of a query, a request body or an answer body; the rest is cut. */
export const DETAIL_TEXT_MAX = 2048;

export interface JournalDetail {
  /** Request headers as name, value pairs, as they came (masked when read). */
  requestHeaders: readonly string[];
  query: string;
  /** The JSON text the request carried, if the emulator read one. */
  requestBody: string | null;
  responseHeaders: readonly [string, string][];
  /** The JSON text the emulator answered (cut to `DETAIL_TEXT_MAX`), if it answered JSON. */
  responseBody: string | null;
}

/** A detail as the control API shows it: cut to size, secrets masked. */
export interface DetailView {
  request: { query: string; headers: Record<string, string>; body: string | null };
  response: { headers: Record<string, string>; body: string | null };
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
 * Text cut after `DETAIL_TEXT_MAX` characters, as a copy: a slice would keep the whole answer
 * alive while the journal holds it.
 */
export function cutText(text: string): string {
  if (text.length <= DETAIL_TEXT_MAX) return text;
  const kept = Buffer.from(text.slice(0, DETAIL_TEXT_MAX)).toString();
  return `${kept}...[truncated ${text.length - DETAIL_TEXT_MAX} chars]`;
}

/** JSON text with the values of secret fields masked. */
function maskJsonText(text: string): string {
  return text.replace(SECRET_FIELDS, '$1"[masked]"');
}

function headerRecord(pairs: Iterable<readonly [string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const masked = maskHeader(key, value);
    out[key] = out[key] === undefined ? masked : `${out[key]}, ${masked}`;
  }
  return out;
}

/** Node's flat `rawHeaders` (name, value, name, value ...) as pairs. */
function* pairs(flat: readonly string[]): Generator<[string, string]> {
  for (let i = 0; i + 1 < flat.length; i += 2) yield [flat[i]!, flat[i + 1]!];
}

/** The newest `capacity` calls' details by request id, oldest dropped first. */
export class JournalDetails {
  private readonly byId = new Map<string, JournalDetail>();

  constructor(readonly capacity: number) {}

  record(requestId: string, detail: JournalDetail): void {
    if (this.capacity === 0) return;
    this.byId.set(requestId, detail);
    if (this.byId.size > this.capacity) this.byId.delete(this.byId.keys().next().value!);
  }

  /** The call's detail as shown (masked, cut); undefined once it is no longer kept. */
  view(requestId: string): DetailView | undefined {
    const d = this.byId.get(requestId);
    if (!d) return undefined;
    return {
      request: {
        query: d.query,
        headers: headerRecord(pairs(d.requestHeaders)),
        body: d.requestBody === null ? null : maskJsonText(d.requestBody),
      },
      response: {
        headers: headerRecord(d.responseHeaders),
        body: d.responseBody === null ? null : maskJsonText(d.responseBody),
      },
    };
  }

  /** Forgets the details of these calls (their entries were removed). */
  forget(requestIds: Iterable<string>): void {
    for (const id of requestIds) this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
