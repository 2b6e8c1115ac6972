/**
 * One verify run's state: the client with its budget, the contract, what the target showed and
 * what verify created there, and the checks made so far, per operation.
 */
import { randomBytes } from 'node:crypto';
import type { Contract, ContractOperation } from './contract.js';
import { type Expectation, judge } from './judge.js';
import { SecretSet } from './mask.js';
import type { Difference, OperationReport } from './report-types.js';
import { showAnswer, showRequest } from './shown.js';
import { type Answer, type OutgoingRequest, sleep, type TargetClient } from './target-client.js';

export interface VerifyOptions {
  /** The target's origin, e.g. `https://api.example.com`; `/v1/...` is appended. */
  target: string;
  key: string;
  narrowKey?: string;
  writes: boolean;
  maxRequests: number;
  rps: number;
  /** Seconds verify waits for its runs to end, and at most for one `Retry-After`. */
  maxWait: number;
}

/** Which key a call carries. `bad` is well-formed and unknown: the 401 case. */
export type KeyChoice = 'main' | 'narrow' | 'bad' | 'none';

export const BAD_KEY = 'svc_verify_unknown_key_000000000000';

export interface CallSpec {
  method?: string;
  /** Path and query. */
  path: string;
  key?: KeyChoice;
  body?: unknown;
  headers?: Record<string, string>;
  /** A clean-up call: it may spend the requests kept for it. */
  cleanUp?: boolean;
}

/** A resource verify created: the only kind it cancels or deletes. */
export interface Created {
  collection: string;
  id: string;
  body: Record<string, unknown>;
  deleted?: boolean;
}

/** How many 429 answers verify takes before it stops sending. */
const MAX_RATE_LIMITED = 3;
/** The longest `Retry-After` verify waits out once; a longer one is recorded, not waited. */
const MAX_RETRY_AFTER_S = 30;

export class Session {
  readonly secrets = new SecretSet();
  readonly reports = new Map<string, OperationReport>();
  /** The items of each collection's first page (`/v1/evaluations` -> its `data`). */
  readonly listed = new Map<string, Record<string, unknown>[]>();
  readonly created: Created[] = [];
  readonly notes: string[] = [];
  /** Whether the key's account has each feature, as the target's answers have shown. */
  readonly features = new Map<string, boolean>();
  /** Why verify stopped sending, once it has. */
  stopped: string | null = null;
  /** Prefixes the Idempotency-Keys of this run, so two runs never share one. */
  readonly runTag = randomBytes(6).toString('hex');
  private rateLimited = 0;
  private keyCount = 0;

  constructor(
    readonly client: TargetClient,
    readonly contract: Contract,
    readonly options: VerifyOptions,
  ) {
    this.secrets.add(options.key);
    this.secrets.add(options.narrowKey);
    for (const op of contract.operations) this.reports.set(op.operationId, reportOf(op));
  }

  /** A fresh `Idempotency-Key` for a create. */
  idempotencyKey(): string {
    return `svc-emulator-verify-${this.runTag}-${++this.keyCount}`;
  }

  notRun(op: ContractOperation, check: string, reason: string): void {
    this.reports.get(op.operationId)!.not_run.push({ check, reason });
  }

  /** Whether `op` already has a check of this name. */
  has(op: ContractOperation, check: string): boolean {
    return this.reports.get(op.operationId)!.checks.some((c) => c.check === check);
  }

  /** Adds a finding to the last check of `op`: matched, or the difference. */
  amend(op: ContractOperation, field: string, ok: boolean, difference: Difference): void {
    const last = this.reports.get(op.operationId)!.checks.at(-1);
    if (!last) return;
    if (ok) last.matched.push(field);
    else last.differences.push(difference);
  }

  /**
   * Sends one call of `op`, judges its answer and records the check; null when it was not sent
   * (no budget left, or verify stopped after repeated 429s).
   */
  async call(
    op: ContractOperation,
    check: string,
    spec: CallSpec,
    expectation: Expectation,
  ): Promise<Answer | null> {
    const req = this.request(op, spec);
    const fromReserve = spec.cleanUp === true;
    let answer = await this.send(op, check, req, fromReserve);
    if (answer?.status === 429)
      answer = await this.afterRateLimit(op, check, req, answer, fromReserve);
    if (!answer) return null;
    // What one key's answers show of its account's features says nothing of another key's.
    const main = (spec.key ?? 'main') === 'main';
    const verdict = judge(
      this.contract,
      op,
      main ? this.knownGate(op, expectation) : expectation,
      answer,
    );
    if (main) this.learnFeature(op, answer);
    this.reports.get(op.operationId)!.checks.push({
      check,
      request: showRequest(req, this.secrets),
      expected: shownExpectation(expectation),
      answer: showAnswer(answer, this.secrets),
      ...verdict,
    });
    return answer;
  }

  /**
   * The 403 gate of an expectation (`orFeatureGate`) once the target has shown whether the key's
   * account has the feature: the plain expectation when it has, the 403 alone when it has not.
   */
  private knownGate(op: ContractOperation, e: Expectation): Expectation {
    const known = op.feature ? this.features.get(op.feature) : undefined;
    if (!e.or || known === undefined) return e;
    return known ? { ...e, or: undefined } : e.or;
  }

  private learnFeature(op: ContractOperation, answer: Answer): void {
    if (!op.feature || this.features.has(op.feature)) return;
    const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (answer.status >= 200 && answer.status < 300) this.features.set(op.feature, true);
    else if (answer.status === 403 && code === 'feature_not_enabled')
      this.features.set(op.feature, false);
  }

  private request(op: ContractOperation, spec: CallSpec): OutgoingRequest {
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    const key = spec.key ?? (op.needsKey ? 'main' : 'none');
    const secret =
      key === 'main' ? this.options.key : key === 'narrow' ? this.options.narrowKey : BAD_KEY;
    if (key !== 'none' && secret) headers.authorization = `Bearer ${secret}`;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    return { method: spec.method ?? op.method, path: spec.path, headers, body };
  }

  private async send(
    op: ContractOperation,
    check: string,
    req: OutgoingRequest,
    fromReserve: boolean,
  ) {
    // A stop after repeated 429s holds for everything but the clean-up of what verify made.
    if (this.stopped && !fromReserve) {
      this.notRun(op, check, this.stopped);
      return null;
    }
    const answer = await this.client.send(req, fromReserve);
    if (!answer) this.notRun(op, check, 'the request budget (--max-requests) was spent');
    return answer;
  }

  /** A 429 is waited out once when `Retry-After` is short; repeated ones stop the run. */
  private async afterRateLimit(
    op: ContractOperation,
    check: string,
    req: OutgoingRequest,
    first: Answer,
    fromReserve: boolean,
  ): Promise<Answer | null> {
    const seconds = Number(first.headers['retry-after']);
    let answer: Answer | null = first;
    const wait = Math.min(MAX_RETRY_AFTER_S, this.options.maxWait);
    if (Number.isFinite(seconds) && seconds <= wait) {
      await sleep(seconds * 1000);
      answer = (await this.send(op, check, req, fromReserve)) ?? first;
    }
    if (answer.status === 429 && ++this.rateLimited >= MAX_RATE_LIMITED)
      this.stopped = `the target answered 429 ${MAX_RATE_LIMITED} times; verify stopped sending (lower --rps)`;
    return answer;
  }
}

function reportOf(op: ContractOperation): OperationReport {
  return {
    operation: op.operationId,
    method: op.method,
    path: op.path,
    inferred: op.inferred,
    checks: [],
    not_run: [],
  };
}

function shownExpectation(e: Expectation): Record<string, unknown> {
  const out: Record<string, unknown> = { status: e.status };
  if (e.codes) out.codes = e.codes;
  if (e.param !== undefined) out.param = e.param;
  if (e.version) out.service_version = e.version;
  if (e.or) out.or = shownExpectation(e.or);
  return out;
}
