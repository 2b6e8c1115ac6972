import { toTimestamp } from '../../core/clock.js';
import type { Deps } from '../../engine/deps.js';
import type { FaultRule, FaultRuleInput } from './fault-rules.js';

/** Installs a rule with the next `flt_` id, stamped with the emulator clock. */
export function addFaultRule(deps: Deps, input: FaultRuleInput): FaultRule {
  const now = deps.systemClock.now();
  return deps.faults.add(input, deps.ids.next('flt', 'faults', now), toTimestamp(now));
}
