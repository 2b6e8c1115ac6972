/**
 * The coverage report: every outcome each product operation can answer (outcomes.ts) beside how
 * often the traffic got it (counts.ts), so an SDK author reads "never saw a 429 on resume" off it.
 * Outcomes seen but not listed (there should be none) are shown apart: nothing seen is hidden.
 */
import type { CoverageCount, CoverageCounts } from '../../areas/requests/coverage-counts.js';
import { type CoverageDocument, type ErrorStatuses, expectedOutcomes } from './outcomes.js';

export interface CoverageOutcome {
  status: number;
  code: string | null;
  documented: boolean;
  seen: number;
}

export interface CoverageOperation {
  operation: string;
  method: string;
  route: string;
  calls: number;
  outcomes: CoverageOutcome[];
  /** Seen, yet not an outcome the operation is listed to answer; `status` null: dropped. */
  unlisted: { status: number | null; code: string | null; seen: number }[];
}

export interface CoverageReport {
  object: 'coverage';
  account: string | null;
  operations: CoverageOperation[];
  summary: {
    operations: number;
    exercised: number;
    outcomes: number;
    seen: number;
    unlisted: number;
    calls: number;
    /** Calls to no operation of the document (unknown paths, the signed download link). */
    unmatched_calls: number;
  };
}

const outcomeKey = (status: number | null, code: string | null) => `${status ?? ''} ${code ?? ''}`;

/**
 * The report of one account (or of every call when `account` is null).
 * @example coverageReport(doc, errorCatalog(deps.kinds), deps.coverage, null).summary
 */
export function coverageReport(
  doc: CoverageDocument,
  codes: ErrorStatuses,
  counts: CoverageCounts,
  account: string | null,
): CoverageReport {
  const seen = new Map<string, Map<string, CoverageCount>>();
  let unmatched = 0;
  for (const c of counts.counts(account ?? undefined)) {
    if (c.operation === null) {
      unmatched += c.seen;
      continue;
    }
    const byOutcome = seen.get(c.operation) ?? new Map<string, CoverageCount>();
    seen.set(c.operation, byOutcome);
    byOutcome.set(outcomeKey(c.status, c.code), c);
  }
  const operations = expectedOutcomes(doc, codes).map((op): CoverageOperation => {
    const got = seen.get(op.operation) ?? new Map<string, CoverageCount>();
    const outcomes = op.outcomes.map((o) => ({
      ...o,
      seen: got.get(outcomeKey(o.status, o.code))?.seen ?? 0,
    }));
    const listed = new Set(op.outcomes.map((o) => outcomeKey(o.status, o.code)));
    const unlisted = [...got]
      .filter(([key]) => !listed.has(key))
      .map(([, { status, code, seen }]) => ({ status, code, seen }))
      .sort(
        (a, b) => (a.status ?? 0) - (b.status ?? 0) || (a.code ?? '').localeCompare(b.code ?? ''),
      );
    const calls = [...got.values()].reduce((n, c) => n + c.seen, 0);
    return { ...op, calls, outcomes, unlisted };
  });
  const listedOps = new Set(operations.map((o) => o.operation));
  for (const [operation, byOutcome] of seen) {
    if (!listedOps.has(operation)) for (const c of byOutcome.values()) unmatched += c.seen;
  }
  const all = operations.flatMap((o) => o.outcomes);
  return {
    object: 'coverage',
    account,
    operations,
    summary: {
      operations: operations.length,
      exercised: operations.filter((o) => o.calls > 0).length,
      outcomes: all.length,
      seen: all.filter((o) => o.seen > 0).length,
      unlisted: operations.reduce((n, o) => n + o.unlisted.length, 0),
      calls: operations.reduce((n, o) => n + o.calls, 0),
      unmatched_calls: unmatched,
    },
  };
}
