/**
 * The headers every answer carries (`X-Request-Id`, `Service-Version`: request-context.ts), and
 * the headers of an answer as it is sent. Where Node serves the call they are set on Node's own
 * response: set with Hono's `c.header()`, they made Hono build an undici `Headers` for every
 * answer, which @hono/node-server then sorted and copied into a plain object to write it
 * (docs/development.md, "Why it is fast"). Node's `writeHead` merges them with the answer's own,
 * the answer's winning. Under `app.request()` there is no Node response: Hono's headers hold them.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** Node's response where Node serves the call; undefined under `app.request()`. */
export const outgoingOf = (c: Context<AppEnv>) =>
  (c.env as Partial<HttpBindings> | undefined)?.outgoing;

/**
 * Sets a header of the answer: on Node's response where Node serves the call (and remembers it for
 * `nodeHeaders`), else on Hono's.
 * @example setAnswerHeader(c, 'X-Request-Id', id)
 */
export function setAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  const outgoing = outgoingOf(c);
  if (!outgoing) {
    c.header(name, value);
    return;
  }
  outgoing.setHeader(name, value);
  const set = c.get('nodeHeaders');
  if (set) put(set, name, value, false);
  else c.set('nodeHeaders', [name.toLowerCase(), value]);
}

/**
 * The headers `setAnswerHeader` set on Node's response, as a flat list of lower-case names and
 * values (none under `app.request()`): what `sentHeaders` adds to an answer's own. Kept as they
 * are set: asking Node's response for them took about 0.4 us a call.
 */
export function nodeHeaders(c: Context<AppEnv>): readonly string[] {
  return c.get('nodeHeaders') ?? [];
}

/** Plain text: the body @hono/node-server sends when an answer names no type. */
const DEFAULT_CONTENT_TYPE = 'text/plain; charset=UTF-8';

/**
 * An answer's headers as sent, without `Date` and the framing Node adds: `onNode` (`nodeHeaders`)
 * and the answer's own, which win, as a flat list of lower-case names and values in the order a
 * `Headers` object iterates them (sorted by name). @hono/node-server's lightweight response is
 * read as it holds them: asking its `headers` would make it build a `Headers` before it writes.
 * @example sentHeaders(c.res, nodeHeaders(c)) // ['content-type', 'application/json', ...]
 */
export function sentHeaders(
  res: Response,
  onNode: readonly string[],
  /** What `lightResponseCache` found, where the caller looked already. */
  cache = lightResponseCache(res),
): string[] {
  const held = heldInit(cache);
  const own = held === undefined ? res.headers : held.headers;
  // The answer's own headers, a name given twice (in two cases) joined as `Headers` joins it.
  const answer: string[] = [];
  if (own === undefined) {
    if (held?.hasBody) answer.push('content-type', DEFAULT_CONTENT_TYPE);
  } else if (own instanceof Headers) {
    own.forEach((value, name) => {
      answer.push(name, value);
    });
  } else if (Array.isArray(own)) {
    for (const [name, value] of own as [string, unknown][]) put(answer, name, value, true);
  } else {
    for (const name in own) put(answer, name, own[name], true);
  }
  const flat = onNode.slice();
  for (let i = 0; i < answer.length; i += 2) put(flat, answer[i]!, answer[i + 1], false);
  return sortedByName(flat);
}

/** Sets (or joins to) a header of a flat list, by its lower-case name. */
function put(flat: string[], name: string, value: unknown, join: boolean): void {
  const lower = name.toLowerCase();
  const text = headerText(value);
  for (let i = 0; i < flat.length; i += 2) {
    if (flat[i] !== lower) continue;
    flat[i + 1] = join ? `${flat[i + 1]}, ${text}` : text;
    return;
  }
  flat.push(lower, text);
}

/** A flat list of names and values, its pairs in order of name (a few: an insertion sort). */
function sortedByName(flat: string[]): string[] {
  for (let i = 2; i < flat.length; i += 2) {
    const name = flat[i]!;
    const value = flat[i + 1]!;
    let j = i - 2;
    for (; j >= 0 && flat[j]! > name; j -= 2) {
      flat[j + 2] = flat[j]!;
      flat[j + 3] = flat[j + 1]!;
    }
    flat[j + 2] = name;
    flat[j + 3] = value;
  }
  return flat;
}

/** The value of a header in a flat list of lower-case names and values, or null. */
export function headerOf(flat: readonly string[], name: string): string | null {
  for (let i = 0; i + 1 < flat.length; i += 2) if (flat[i] === name) return flat[i + 1]!;
  return null;
}

/** A `Retry-After` value in whole seconds (RFC 9110 section 10.2.3), else null. */
export function wholeSeconds(value: string | null | undefined): number | null {
  return value != null && /^\d+$/.test(value) ? Number(value) : null;
}

/** A header's value as one text: a list joined as `Headers` joins it. */
function headerText(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * What @hono/node-server's lightweight response holds, `[status, body, headers]`, under its
 * `Symbol(cache)`, which it writes out itself; `undefined` for any other response (or one already
 * made a whole `Response`).
 */
export function lightResponseCache(
  res: Response,
  /**
   * The symbol, where the caller knows it (`lightCacheSymbol`): listing a response's symbols
   * costs about 2,000 instructions.
   */
  symbol = lightCacheSymbol(res),
): unknown[] | undefined {
  const cache: unknown = symbol === undefined ? undefined : Reflect.get(res, symbol);
  return Array.isArray(cache) ? cache : undefined;
}

/** @hono/node-server's `Symbol(cache)` on a lightweight response; undefined on any other. */
export function lightCacheSymbol(res: Response): symbol | undefined {
  return Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
}

interface HeldInit {
  headers: Headers | Record<string, unknown> | unknown[] | undefined;
  hasBody: boolean;
}

/**
 * What a lightweight response's cache holds of its headers (`undefined` when it was given none)
 * and whether it has a body; `undefined` for any other response.
 */
function heldInit(cache: unknown[] | undefined): HeldInit | undefined {
  if (!cache) return undefined;
  const headers: unknown = cache[2];
  return {
    headers: headers ? (headers as Headers | Record<string, unknown> | unknown[]) : undefined,
    hasBody: cache[1] !== null,
  };
}
