import { RUN_STATUSES } from '../../engine/contract/run-shapes.js';
import type { RunState } from '../../engine/records.js';
import type { RunCounts, Usage } from './contract.js';

/**
 * The usage object (inferred, DESIGN.md sections 3 and 7): the balance, sums over the account's
 * runs of every kind as each reads now, and counts per kind (by collection) by status.
 * @example summarizeUsage(1000, [collection], [{ collection, state }])
 */
export function summarizeUsage(
  tokenBalance: number,
  collections: readonly string[],
  runs: { collection: string; state: Pick<RunState, 'status' | 'tokens'> }[],
): Usage {
  const counts: Record<string, RunCounts> = {};
  for (const name of collections)
    counts[name] = {
      total: 0,
      by_status: Object.fromEntries(RUN_STATUSES.map((s) => [s, 0])) as RunCounts['by_status'],
    };
  let charged = 0;
  let refunded = 0;
  for (const { collection, state } of runs) {
    const c = counts[collection];
    if (c) {
      c.total += 1;
      c.by_status[state.status] += 1;
    }
    charged += state.tokens.charged;
    refunded += state.tokens.refunded;
  }
  return {
    object: 'usage',
    token_balance: tokenBalance,
    tokens: { charged, refunded, net: charged - refunded },
    ...counts,
  } as Usage;
}
