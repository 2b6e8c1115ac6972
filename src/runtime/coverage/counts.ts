/**
 * Counts of the outcomes product calls received, for `GET /_control/coverage`: per account,
 * operation, status and code, fed by the journal hook, emptied by a reset, never persisted.
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

/** operation -> status -> code -> calls, keyed by the values themselves (null included). */
type Counts = Map<string | null, Map<number | null, Map<string | null, number>>>;

export class CoverageCounts {
  private byAccount = new Map<string, Counts>();

  record(call: CoverageCall): void {
    const account = call.account ?? NO_ACCOUNT;
    let counts = this.byAccount.get(account);
    if (!counts) {
      counts = new Map();
      this.byAccount.set(account, counts);
    }
    let byStatus = counts.get(call.operation);
    if (!byStatus) {
      byStatus = new Map();
      counts.set(call.operation, byStatus);
    }
    let byCode = byStatus.get(call.status);
    if (!byCode) {
      byCode = new Map();
      byStatus.set(call.status, byCode);
    }
    byCode.set(call.code, (byCode.get(call.code) ?? 0) + 1);
  }

  /** The counts of one account, or of every call (account omitted), summed per outcome. */
  counts(account?: string): CoverageCount[] {
    const sums = new Map<string, CoverageCount>();
    const sources =
      account === undefined ? [...this.byAccount.values()] : [this.byAccount.get(account)];
    for (const counts of sources) {
      for (const [operation, byStatus] of counts ?? []) {
        for (const [status, byCode] of byStatus) {
          for (const [code, seen] of byCode) {
            const key = `${operation ?? ''}\0${status ?? ''}\0${code ?? ''}`;
            const sum = sums.get(key);
            if (sum) sum.seen += seen;
            else sums.set(key, { operation, status, code, seen });
          }
        }
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
