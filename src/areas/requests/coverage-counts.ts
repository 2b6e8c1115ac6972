/**
 * Counts of product calls per account and outcome, for `GET /_control/coverage`, never persisted.
 * Bounded without a ring: operations, statuses and codes are finite.
 */

/** One product call as the coverage report counts it. */
export interface CoverageCall {
  /** Null when no route matched (an unknown path). */
  operation: string | null;
  /** Null when a fault rule dropped the connection. */
  status: number | null;
  code: string | null;
  /** Null when the caller has no account (no or a bad key). */
  account: string | null;
}

/** How often one outcome of one operation was seen. */
export interface CoverageCount {
  operation: string | null;
  status: number | null;
  code: string | null;
  seen: number;
}

/** Calls without an account are counted under this key: they show in the all-accounts view. */
const NO_ACCOUNT = '';

const keyOf = (c: CoverageCall) => `${c.operation ?? ''}\0${c.status ?? ''}\0${c.code ?? ''}`;

export class CoverageCounts {
  /** Per account, each outcome seen, by operation, status and code. */
  private byAccount = new Map<string, Map<string, CoverageCount>>();

  record(call: CoverageCall): void {
    const account = call.account ?? NO_ACCOUNT;
    let counts = this.byAccount.get(account);
    if (!counts) {
      counts = new Map<string, CoverageCount>();
      this.byAccount.set(account, counts);
    }
    const { operation, status, code } = call;
    const key = keyOf(call);
    const count = counts.get(key);
    if (count) count.seen += 1;
    else counts.set(key, { operation, status, code, seen: 1 });
  }

  /** The counts of one account, or of every call (account omitted), summed per outcome. */
  counts(account?: string): CoverageCount[] {
    const sums = new Map<string, CoverageCount>();
    const sources =
      account === undefined ? [...this.byAccount.values()] : [this.byAccount.get(account)];
    for (const counts of sources) {
      for (const [key, { operation, status, code, seen }] of counts ?? []) {
        const sum = sums.get(key);
        if (sum) sum.seen += seen;
        else sums.set(key, { operation, status, code, seen });
      }
    }
    return [...sums.values()];
  }

  /** Forgets one account's counts (a reset of that account). */
  forget(account: string): void {
    this.byAccount.delete(account);
  }

  /** Forgets everything (a reset of the world). */
  clear(): void {
    this.byAccount.clear();
  }
}

declare module '../../engine/deps.js' {
  interface Deps {
    /** Outcomes per operation and account, for `GET /_control/coverage` (not persisted). */
    coverage: CoverageCounts;
  }
}
