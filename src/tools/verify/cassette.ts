/**
 * A cassette: the exchanges the proxy saw, one JSON file each (`000001-createEvaluation.json`),
 * secrets masked; a key is kept as a label (`Bearer ***1`) so a replay can tell keys apart.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MASK, maskJson, SecretSet } from './mask.js';
import type { Difference, ShownAnswer } from './report-types.js';
import { showAnswer } from './shown.js';
import type { Answer } from './target-client.js';

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Exchange {
  seq: number;
  /** Wall time of the request (RFC 3339): `drift` moves the emulator's clock by the gaps. */
  at: string;
  operation: string | null;
  request: RecordedRequest;
  response: ShownAnswer;
  /** What the proxy found against the contract (its `X-Emulator-Violations`). */
  violations: Difference[];
}

/**
 * Request headers a cassette keeps; `authorization` only as a label. `x-emulator-fault` too: a
 * call faulted through the proxy is faulted again when drift replays it.
 */
const KEPT_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'service-version',
  'idempotency-key',
  'range',
  'if-none-match',
  'x-emulator-fault',
];

/** A request as recorded, and the place its exchange takes in the cassette (request order). */
export interface Recording {
  seq: number;
  request: RecordedRequest;
}

export class CassetteError extends Error {}

export class CassetteWriter {
  readonly secrets = new SecretSet();
  private readonly labels = new Map<string, number>();
  private seq = 0;

  /** Refuses a folder that already holds exchanges: a cassette is one session. */
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    if (readdirSync(dir).some((f) => f.endsWith('.json')))
      throw new CassetteError(
        `--record ${dir} already holds a cassette: give an empty or new folder`,
      );
  }

  /** `Bearer ***N`: the Nth distinct key of this session. */
  private label(value: string): string {
    const secret = value.replace(/^Bearer\s+/i, '');
    this.secrets.add(secret);
    if (!this.labels.has(secret)) this.labels.set(secret, this.labels.size + 1);
    return `Bearer ${MASK}${this.labels.get(secret)}`;
  }

  /**
   * The request as recorded (kept headers, the key as a label, the body's secrets masked), with
   * its exchange's number: exchanges are numbered in the order their requests came, though an
   * answer streamed on is written when it ends.
   */
  request(method: string, path: string, headers: Headers, body: string): Recording {
    const kept: Record<string, string> = {};
    for (const name of KEPT_REQUEST_HEADERS) {
      const value = headers.get(name);
      if (value !== null) kept[name] = name === 'authorization' ? this.label(value) : value;
    }
    const out: RecordedRequest = { method, path: this.secrets.scrub(path), headers: kept };
    if (body !== '') out.body = parseOrText(body, this.secrets);
    return { seq: ++this.seq, request: out };
  }

  write(
    at: string,
    operation: string | null,
    { seq, request }: Recording,
    answer: Answer,
    violations: Difference[],
  ): string {
    const response = showAnswer(answer, this.secrets, { full: true });
    const exchange: Exchange = { seq, at, operation, request, response, violations };
    const file = join(this.dir, `${String(seq).padStart(6, '0')}-${operation ?? 'unmatched'}.json`);
    writeFileSync(file, this.secrets.scrub(`${JSON.stringify(exchange, null, 2)}\n`));
    return file;
  }
}

function parseOrText(body: string, secrets: SecretSet): unknown {
  try {
    return maskJson(JSON.parse(body), secrets);
  } catch {
    return body;
  }
}

/** The exchanges of a cassette folder, in order. */
export function readCassette(dir: string): Exchange[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^\d+-.*\.json$/.test(f));
  } catch (err) {
    throw new CassetteError(`cannot read the cassette ${dir}: ${(err as Error).message}`);
  }
  if (files.length === 0) throw new CassetteError(`${dir} holds no recorded exchanges`);
  const exchanges = files.map((f) => {
    try {
      const e = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Exchange;
      if (typeof e.request?.method !== 'string' || typeof e.response?.status !== 'number')
        throw new Error('expected {request: {method, path}, response: {status}}');
      return e;
    } catch (err) {
      throw new CassetteError(`${join(dir, f)}: ${(err as Error).message}`);
    }
  });
  return exchanges.sort((a, b) => a.seq - b.seq);
}
