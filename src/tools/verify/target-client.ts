/**
 * Every request verify sends goes through here: a budget (`--max-requests`) and a pace
 * (`--rps`), both counted at the client, so the target sees no more than it was promised.
 */
import { type BodyDigest, MAX_KEPT_BODY_BYTES, readBody } from './body-tap.js';

/** One answer, its body read to its end. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The parsed body when it is JSON, else undefined. */
  json?: unknown;
  /** The raw body; empty when it was over the limit (`over`). */
  bytes: Buffer;
  /** A body over the limit of what is kept (body-tap.ts): its size and SHA-256. */
  over?: BodyDigest;
  /** Set when no answer came: the network error's message. */
  networkError?: string;
}

export interface OutgoingRequest {
  method: string;
  /** Path and query: `/v1/evaluations?limit=1`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Wall time a single request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

export class TargetClient {
  /** Requests sent so far, this one included once it is under way. */
  sent = 0;
  /** Requests kept for the clean-up of what verify created: only `send(req, true)` spends them. */
  reserved = 0;
  private nextAt = 0;

  constructor(
    private readonly base: string,
    private readonly maxRequests: number,
    private readonly rps: number,
    /** The most of one answer's body kept; a larger one is read, counted and hashed. */
    private readonly maxBodyBytes = MAX_KEPT_BODY_BYTES,
  ) {}

  /** Requests still allowed by the budget, the reserve left aside. */
  get left(): number {
    return this.maxRequests - this.sent - this.reserved;
  }

  /** Sends one request at the pace, or answers null when the budget is spent. */
  async send(req: OutgoingRequest, fromReserve = false): Promise<Answer | null> {
    if (this.left + (fromReserve ? this.reserved : 0) <= 0) return null;
    if (fromReserve && this.left <= 0) this.reserved--;
    this.sent++;
    await this.pace();
    try {
      const res = await fetch(`${this.base}${req.path}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const { bytes, over } = await readBody(res.body, this.maxBodyBytes);
      const headers = Object.fromEntries(res.headers);
      if (over) return { status: res.status, headers, bytes, over };
      return { status: res.status, headers, bytes, json: parseJson(headers, bytes) };
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      return { status: 0, headers: {}, bytes: Buffer.alloc(0), networkError: cause ?? String(err) };
    }
  }

  /** Waits until `--rps` allows the next request (wall time: the target's load is real). */
  private async pace(): Promise<void> {
    const now = performance.now();
    const wait = this.nextAt - now;
    this.nextAt = Math.max(now, this.nextAt) + 1000 / this.rps;
    if (wait > 0) await sleep(wait);
  }
}

/** A wall-time pause (pacing, polling, Retry-After). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The body as JSON when the answer says it is JSON and it parses. */
export function parseJson(headers: Record<string, string>, bytes: Buffer): unknown {
  if (!/json/i.test(headers['content-type'] ?? '') || bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Runs `step` until it answers true or `maxMs` of wall time pass; a number it answers is the
 * pause before the next step.
 */
export async function waitUntil(maxMs: number, step: () => Promise<true | number>): Promise<void> {
  const deadline = performance.now() + maxMs;
  for (;;) {
    const next = await step();
    if (next === true || performance.now() + next > deadline) return;
    await sleep(next);
  }
}
