/** The drift report of `verify` and `drift` (docs/verify.md, "Reading the report"): one format. */

/** A request as the report shows it: secrets masked. */
export interface ShownRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** An answer as the report shows it: a few headers, the body (JSON, text, or its digest). */
export interface ShownAnswer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  /** No answer came: why. */
  network_error?: string;
}

/** One way an answer differs from the contract (verify) or from the recorded one (drift). */
export interface Difference {
  /** `status`, `error.code`, `body.data[0].status`, `header Retry-After`, ... */
  field: string;
  expected: unknown;
  actual: unknown;
  /** The field is one the emulator infers (`x-inferred`). */
  inferred?: boolean;
}

export interface CheckResult {
  /** What the call checks: `read`, `bad key`, `unknown id`, `paging`, `exchange 12`, ... */
  check: string;
  request: ShownRequest;
  /** verify: what the contract expects (statuses, codes, param). */
  expected?: Record<string, unknown>;
  /** The target's answer (verify), or the recorded answer of the service (drift). */
  answer: ShownAnswer;
  /** drift: the emulator's answer to the same request. */
  emulator?: ShownAnswer;
  /** What was compared and agreed. */
  matched: string[];
  differences: Difference[];
}

export interface OperationReport {
  operation: string;
  method: string;
  /** The path template. */
  path: string;
  /** `x-inferred`: the API document does not specify this operation. */
  inferred: boolean;
  checks: CheckResult[];
  /** Checks not made, and why (no budget left, nothing to read, rate limited). */
  not_run: { check: string; reason: string }[];
}

export interface Report {
  tool: 'verify' | 'drift';
  /** verify: the target URL; drift: the cassette folder. */
  target: string;
  /** The contract checked against: the emulator version's `/openapi.json`. */
  contract: string;
  /** Requests sent to the target (verify) or replayed to the emulator (drift). */
  requests: number;
  options: Record<string, unknown>;
  summary: { operations: number; checks: number; differing_checks: number; not_run: number };
  /** Every difference, flat: empty when the target agrees. */
  differences: (Difference & { operation: string; check: string })[];
  operations: OperationReport[];
  /** What the reader should know about this run (e.g. why it stopped early). */
  notes: string[];
}
