/**
 * `--proxy URL`: `/v1` forwarded to the target with the caller's own headers (its key included),
 * each answer judged against the contract and returned as it came, plus `X-Emulator-Violations`
 * naming what differs (as Prism's `sl-violations`); with `--record DIR`, each exchange recorded.
 */

import { wallNow } from '../../core/clock.js';
import { apiError } from '../../core/errors.js';
import { errorEnvelope } from '../../http/render-error.js';
import type { CassetteWriter } from './cassette.js';
import { type Contract, declaredStatuses, matchOperation } from './contract.js';
import { judge } from './judge.js';
import { maskUrl } from './mask.js';
import type { Difference } from './report-types.js';
import { type Answer, parseJson } from './target-client.js';

export const VIOLATIONS_HEADER = 'X-Emulator-Violations';

/** Headers of one hop only (RFC 9110 section 7.6.1), and those `fetch` sets itself. */
const HOP_BY_HOP: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-encoding',
  'accept-encoding',
];

/** The most the violations header carries; the rest is counted. */
const MAX_HEADER_CHARS = 4000;
/** Wall time the target may take to answer. */
const FORWARD_TIMEOUT_MS = 60_000;

export interface ProxyOptions {
  /** The target's origin: `https://api.example.com`. */
  target: string;
  contract: Contract;
  cassette?: CassetteWriter;
}

/** JSON with every character outside printable ASCII escaped: a header value carries it as is. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The violations as one header value: JSON, ASCII only, cut to a size proxies pass. */
export function violationsHeader(violations: Difference[]): string {
  const out: Difference[] = [];
  for (const v of violations) {
    // Room is kept for the last entry, which counts the ones left out.
    if (asciiJson([...out, v]).length > MAX_HEADER_CHARS - 100) {
      out.push({ field: '...', expected: null, actual: `${violations.length - out.length} more` });
      break;
    }
    out.push(v);
  }
  return asciiJson(out);
}

function forwardHeaders(headers: Headers): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.includes(name.toLowerCase())) out.set(name, value);
  });
  // The body is read to judge it: asked for unencoded.
  out.set('accept-encoding', 'identity');
  return out;
}

/** Forwards one `/v1` request; answers the target's answer with the violations header added. */
export async function forward(req: Request, options: ProxyOptions): Promise<Response> {
  const url = new URL(req.url);
  const path = `${url.pathname}${url.search}`;
  const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await req.text();
  const at = new Date(wallNow()).toISOString();
  const recorded = options.cassette?.request(req.method, path, req.headers, body);
  let answer: Answer;
  try {
    const res = await fetch(`${options.target}${path}`, {
      method: req.method,
      headers: forwardHeaders(req.headers),
      body: body === '' ? undefined : body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const headers = Object.fromEntries(res.headers);
    answer = { status: res.status, headers, bytes, json: parseJson(headers, bytes) };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? String(err);
    const message = `The proxy could not reach ${maskUrl(options.target)}: ${cause}`;
    return Response.json(errorEnvelope(apiError('launch_failed', { message }), null), {
      status: 502,
    });
  }
  const matched = matchOperation(options.contract, req.method, url.pathname);
  const violations: Difference[] = matched
    ? judge(options.contract, matched.op, { status: declaredStatuses(matched.op) }, answer)
        .differences
    : [
        {
          field: 'operation',
          expected: 'an operation of the contract',
          actual: `${req.method} ${url.pathname}`,
        },
      ];
  if (recorded)
    options.cassette!.write(at, matched?.op.operationId ?? null, recorded, answer, violations);
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    if (!HOP_BY_HOP.includes(name)) headers.set(name, value);
  if (violations.length > 0) headers.set(VIOLATIONS_HEADER, violationsHeader(violations));
  const bodyOut =
    req.method === 'HEAD' || answer.status === 204 || answer.status === 304 ? null : answer.bytes;
  return new Response(bodyOut, { status: answer.status, headers });
}
