/**
 * Fault rules (DESIGN.md section 5): fail, delay, drop or hang chosen calls, before or after their
 * work, the first rule that fires deciding; probabilities come from the seeded PRNG, so a run is
 * reproducible.
 */
import { createPrng, type Prng, type PrngState } from '../../core/prng.js';
import { type FaultRule, FaultRuleInput, type StrikeRespond } from './contract.js';
import type { FaultRuleStore } from './fault-rules-store.js';
import { Sweeps } from './sweeps.js';

export { defaultFaultCode } from '../../core/error-answers.js';
export { FaultMatch, FaultRespond, FaultRuleInput } from './contract.js';
export type { FaultRule, StrikeRespond };

/** The rules with their counters and the probability stream: what a world snapshot keeps. */
export interface FaultRulesState {
  rules: FaultRule[];
  draw: PrngState;
}

/** What the caller's request is, as far as matching needs it. */
export interface FaultTarget {
  method: string;
  route: string | null;
  operation: string | null;
  /** Looked up only for rules that name an account or key; remembers its answer. */
  caller(): { accountId: string; keyId: string } | null;
}

/** The rule that fires and what it does. */
export interface FaultAction {
  rule: FaultRule;
  respond: StrikeRespond;
}

export interface FaultDecision {
  delayMs: number;
  /** Rules that fired (delays, then the error or drop if any). */
  fired: FaultRule[];
  action: FaultAction | null;
}

/** A rule as `/_control/faults` shows it. */
export function faultRuleView(rule: FaultRule) {
  return {
    id: rule.id,
    object: 'fault_rule' as const,
    match: rule.match,
    respond: rule.respond,
    times: rule.times ?? null,
    skip: rule.skip,
    probability: rule.probability ?? null,
    hits: rule.hits,
    skipped: rule.skipped,
    remaining: rule.times === undefined ? null : Math.max(0, rule.times - rule.hits),
    created_at: rule.createdAt,
  };
}

export class FaultRules {
  private rules: FaultRule[] = [];
  private draw: Prng;
  /** The armed fault sweeps (issue 38), consulted when no rule fires. */
  readonly sweeps = new Sweeps();

  constructor(
    private readonly seed: string,
    /** Where rules are also kept (a `--db` file); null in memory. */
    private readonly sink: FaultRuleStore | null = null,
  ) {
    this.draw = createPrng(seed, 'faults');
  }

  /** Reloads a `--db` file's rules; the probability stream restarts from the seed (inferred). */
  restore(): number {
    this.rules = this.sink?.load() ?? [];
    return this.rules.length;
  }

  get size(): number {
    return this.rules.length;
  }

  /** Copies of the rules and where the probability stream stands, for a world snapshot. */
  state(): FaultRulesState {
    return { rules: structuredClone(this.rules), draw: this.draw.state() };
  }

  /** Puts back a snapshot's rules, counters and stream (and a `--db` file's copy of the rules). */
  replace(saved: FaultRulesState): void {
    this.rules = structuredClone(saved.rules);
    this.sink?.clear();
    for (const rule of this.rules) this.sink?.save(rule);
    this.draw = createPrng(this.seed, 'faults', saved.draw);
  }

  add(input: FaultRuleInput, id: string, createdAt: string): FaultRule {
    const parsed = FaultRuleInput.parse(input);
    const rule: FaultRule = { ...parsed, id, createdAt, hits: 0, skipped: 0 };
    this.rules.push(rule);
    this.sink?.save(rule);
    return rule;
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** The rule `id` with a new body: its id, creation time and place kept, counters from zero. */
  replaceRule(id: string, input: FaultRuleInput): FaultRule | undefined {
    const i = this.rules.findIndex((r) => r.id === id);
    if (i < 0) return undefined;
    const { createdAt } = this.rules[i]!;
    const rule: FaultRule = { ...FaultRuleInput.parse(input), id, createdAt, hits: 0, skipped: 0 };
    this.rules[i] = rule;
    this.sink?.save(rule);
    return rule;
  }

  remove(id: string): boolean {
    const rule = this.rules.find((r) => r.id === id);
    if (rule === undefined) return false;
    this.rules = this.rules.filter((r) => r !== rule);
    this.sink?.delete(id);
    return true;
  }

  /** Removes every rule and restarts the probability stream; answers how many were removed. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    this.sink?.clear();
    this.draw = createPrng(this.seed, 'faults');
    return n;
  }

  /**
   * Which rules fire for this call. Delay rules add up; the first error or drop rule ends the
   * search. A rule in its `skip` phase, exhausted, or losing its draw lets the call through.
   */
  decide(target: FaultTarget): FaultDecision {
    const decision: FaultDecision = { delayMs: 0, fired: [], action: null };
    for (const rule of this.rules) {
      if (!matches(rule, target)) continue;
      if (rule.skipped < rule.skip) {
        rule.skipped += 1;
        this.sink?.save(rule);
        continue;
      }
      if (rule.probability !== undefined && this.draw() >= rule.probability) continue;
      rule.hits += 1;
      this.sink?.save(rule);
      decision.fired.push(rule);
      const r = rule.respond;
      if ('delay_ms' in r) {
        decision.delayMs += r.delay_ms;
        continue;
      }
      decision.action = { rule, respond: r };
      break;
    }
    return decision;
  }
}

/** Whether `rule` can still fire and everything it names matches the call. */
function matches(rule: FaultRule, target: FaultTarget): boolean {
  if (rule.times !== undefined && rule.hits >= rule.times) return false;
  const m = rule.match;
  if (m.method !== undefined && m.method !== target.method) return false;
  if (m.route !== undefined && m.route !== target.route) return false;
  if (m.operation !== undefined && m.operation !== target.operation) return false;
  if (m.account === undefined && m.key === undefined) return true;
  const c = target.caller();
  if (m.account !== undefined && m.account !== c?.accountId) return false;
  return m.key === undefined || m.key === c?.keyId;
}

declare module '../../engine/deps.js' {
  interface Deps {
    /** The fault rules in force, and their draws (`/_control/faults`). */
    faults: FaultRules;
  }
}
