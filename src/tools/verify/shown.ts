/** Requests and answers as a report or a cassette shows them: few headers, secrets masked. */
import { createHash } from 'node:crypto';
import { maskHeaders, maskJson, type SecretSet } from './mask.js';
import type { ShownAnswer, ShownRequest } from './report-types.js';
import type { Answer, OutgoingRequest } from './target-client.js';

/** The answer headers worth showing: the ones the contract speaks of, and those of downloads. */
const SHOWN_ANSWER_HEADERS = [
  'content-type',
  'x-request-id',
  'service-version',
  'retry-after',
  'idempotent-replayed',
  'etag',
  'content-range',
  'content-disposition',
  'location',
];

/** Items of a list shown in a report; the rest are counted. */
const LIST_ITEMS_SHOWN = 3;

export function showRequest(req: OutgoingRequest, secrets: SecretSet): ShownRequest {
  const shown: ShownRequest = {
    method: req.method,
    url: secrets.scrub(req.path),
    headers: maskHeaders(req.headers),
  };
  if (req.body !== undefined) shown.body = showText(req.body, secrets);
  return shown;
}

/** `full`: lists whole (a cassette); else their first items (a report). */
export function showAnswer(
  answer: Answer,
  secrets: SecretSet,
  options: { full?: boolean } = {},
): ShownAnswer {
  if (answer.networkError) return { status: 0, headers: {}, network_error: answer.networkError };
  const headers: Record<string, string> = {};
  for (const name of SHOWN_ANSWER_HEADERS)
    if (answer.headers[name] !== undefined) headers[name] = answer.headers[name];
  const shown: ShownAnswer = { status: answer.status, headers: maskHeaders(headers) };
  if (answer.json !== undefined) {
    const masked = maskJson(answer.json, secrets);
    shown.body = options.full ? masked : shortLists(masked);
  } else if (answer.over) shown.body = { ...answer.over };
  else if (answer.bytes.length > 0) shown.body = showBytes(answer.bytes);
  return shown;
}

/** A request body: its JSON, masked, or its text. */
function showText(body: string, secrets: SecretSet): unknown {
  try {
    return maskJson(JSON.parse(body), secrets);
  } catch {
    return body.length > 500 ? `${body.slice(0, 500)}...` : body;
  }
}

/** A body that is not JSON: its size and digest (an archive), or its start when it is text. */
export function showBytes(bytes: Buffer): unknown {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes: bytes.length, sha256 };
}

/** A list answer keeps its first items; how many more there were is said. */
function shortLists(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length <= LIST_ITEMS_SHOWN) return body;
  return {
    ...body,
    data: [...data.slice(0, LIST_ITEMS_SHOWN), `... ${data.length - LIST_ITEMS_SHOWN} more`],
  };
}
