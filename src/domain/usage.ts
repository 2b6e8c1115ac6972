import { EVALUATION_STATUSES } from '../contract/evaluations.js';
import type { Usage } from '../contract/usage.js';
import type { EvaluationState } from './records.js';

/**
 * The usage object (inferred, DESIGN.md section 3): the balance as the account holds it, and
 * sums over its evaluations as each reads now (charged at start, refunded on failure or cancel).
 * @example summarizeUsage(1000, [{ status: 'succeeded', tokens: { charged: 10, refunded: 0 } }])
 */
export function summarizeUsage(
  tokenBalance: number,
  runs: Pick<EvaluationState, 'status' | 'tokens'>[],
): Usage {
  const byStatus = Object.fromEntries(
    EVALUATION_STATUSES.map((s) => [s, 0]),
  ) as Usage['evaluations']['by_status'];
  let charged = 0;
  let refunded = 0;
  for (const run of runs) {
    byStatus[run.status] += 1;
    charged += run.tokens.charged;
    refunded += run.tokens.refunded;
  }
  return {
    object: 'usage',
    token_balance: tokenBalance,
    tokens: { charged, refunded, net: charged - refunded },
    evaluations: { total: runs.length, by_status: byStatus },
  };
}
