/**
 * `--proxy URL`: `/v1` forwarded to the target with the caller's own headers (its key included),
 * each answer judged against the contract and returned as it came, plus `X-Emulator-Violations`
 * naming what differs (as Prism's `sl-violations`); with `--record DIR`, each exchange recorded.
 */

import { wallNow } from '../../core/clock.js';
import { errorEnvelope } from '../../core/envelope.js';
import { type ApiError, apiError } from '../../core/errors.js';
import type { CassetteWriter } from './cassette.js';
import {
  type Contract,
  type ContractOperation,
  declaredStatuses,
  matchOperation,
} from './contract.js';
import { judge } from './judge.js';
import { maskUrl } from './mask.js';
import { requestText, type TappedBody, tapBody } from './proxy-body.js';
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
  const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await requestText(req);
  // The product's own limit (DESIGN.md section 3): refused here, never sent to the target.
  if (body === null) return envelope(apiError('request_too_large'));
  const at = new Date(wallNow()).toISOString();
  const recorded = options.cassette?.request(req.method, path, req.headers, body);
  let res: Response;
  let tapped: TappedBody;
  try {
    res = await fetch(`${options.target}${path}`, {
      method: req.method,
      headers: forwardHeaders(req.headers),
      body: body === '' ? undefined : body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    tapped = await tapBody(res.body);
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? String(err);
    const message = `The proxy could not reach ${maskUrl(options.target)}: ${cause}`;
    return envelope(apiError('launch_failed', { message }), 502);
  }
  const headers = Object.fromEntries(res.headers);
  // An answer too large to keep is judged by its status and headers, and streamed on; its size
  // and digest, known once it has all gone, replace these zeros in the cassette.
  const answer: Answer = tapped.whole
    ? { status: res.status, headers, bytes: tapped.bytes, json: parseJson(headers, tapped.bytes) }
    : { status: res.status, headers, bytes: Buffer.alloc(0), over: { bytes: 0, sha256: '' } };
  const matched = matchOperation(options.contract, req.method, url.pathname);
  const violations = judgeAnswer(options.contract, matched?.op, req.method, url.pathname, answer);
  const record = (shown: Answer) =>
    recorded &&
    options.cassette!.write(at, matched?.op.operationId ?? null, recorded, shown, violations);
  if (tapped.whole) record(answer);
  else void tapped.digest.then((over) => record({ ...answer, over }));
  const out = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    if (!HOP_BY_HOP.includes(name)) out.set(name, value);
  if (violations.length > 0) out.set(VIOLATIONS_HEADER, violationsHeader(violations));
  const noBody = req.method === 'HEAD' || answer.status === 204 || answer.status === 304;
  return new Response(noBody ? null : tapped.whole ? tapped.bytes : tapped.stream, {
    status: answer.status,
    headers: out,
  });
}

/** What differs from the contract; a path no operation has is one difference. */
function judgeAnswer(
  contract: Contract,
  op: ContractOperation | undefined,
  method: string,
  pathname: string,
  answer: Answer,
): Difference[] {
  if (op) return judge(contract, op, { status: declaredStatuses(op) }, answer).differences;
  const actual = `${method} ${pathname}`;
  return [{ field: 'operation', expected: 'an operation of the contract', actual }];
}

/** An error of the proxy's own, in the envelope (no request id: the target made none). */
function envelope(err: ApiError, status = err.status): Response {
  return Response.json(errorEnvelope(err, null), { status });
}
