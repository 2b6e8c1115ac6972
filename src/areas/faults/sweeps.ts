/**
 * Fault sweeps (issue 38): every (operation x fault) pair armed once. A call of an operation takes
 * the next fault of the sweep's list, the call after it passes (so a retry can recover), the one
 * after that takes the next fault, and so on: the same calls in the same order meet the same
 * faults, whatever the seed.
 */
import { AFTER_STATUSES, FAULT_STATUSES, type StrikeRespond } from './contract.js';

/** What a sweep's fault names strike with: a status, `drop` or `hang`, each optionally `_after`. */
export const SWEEP_FAULTS = ['429', '502', '503', 'drop', '502_after', 'drop_after', 'hang_after'];

/**
 * The answer a fault name stands for, or null for a name that is none: `<status>` (any fault
 * status), `<status>_after` (500, 502, 503, 504), `drop`, `hang`, each but a 4xx with `_after`.
 * @example sweepRespond('502_after', 5000) // { status: 502, after: true }
 */
export function sweepRespond(name: string, hangMs: number): StrikeRespond | null {
  const m = /^(\d{3}|drop|hang)(_after)?$/.exec(name);
  if (!m) return null;
  const after = m[2] !== undefined;
  const extra = after ? { after: true } : {};
  if (m[1] === 'drop') return { drop: true, ...extra };
  if (m[1] === 'hang') return { hang_ms: hangMs, ...extra };
  const status = Number(m[1]);
  const allowed: readonly number[] = after ? AFTER_STATUSES : FAULT_STATUSES;
  return allowed.includes(status) ? { status, ...extra } : null;
}

/** One struck call: the fault it met and its request id. */
export interface SweepStrike {
  fault: string;
  request_id: string;
}

/** Where one operation stands in a sweep. */
interface OperationState {
  /** The index of the next fault to strike with. */
  next: number;
  /** The last call was struck: the next one passes. */
  resting: boolean;
  strikes: SweepStrike[];
}

export interface Sweep {
  id: string;
  account: string | null;
  /** The operations armed; null: every operation the calls reach. */
  operations: string[] | null;
  faults: string[];
  hangMs: number;
  createdAt: string;
  /** Per operation, in the order given or first called. */
  state: Map<string, OperationState>;
}

export type SweepInput = Pick<Sweep, 'account' | 'operations' | 'faults' | 'hangMs'>;

/** The call a sweep may strike: its operation, and who calls (looked up only when needed). */
export interface SweepTarget {
  operation: string | null;
  account(): string | null;
}

export class Sweeps {
  private sweeps: Sweep[] = [];

  /** Whether any sweep is installed (the fault check's fast path skips them otherwise). */
  get armed(): boolean {
    return this.sweeps.length > 0;
  }

  add(input: SweepInput, id: string, createdAt: string): Sweep {
    const sweep: Sweep = { ...input, id, createdAt, state: new Map() };
    for (const op of input.operations ?? []) sweep.state.set(op, fresh());
    this.sweeps.push(sweep);
    return sweep;
  }

  list(): readonly Sweep[] {
    return this.sweeps;
  }

  get(id: string): Sweep | undefined {
    return this.sweeps.find((s) => s.id === id);
  }

  remove(id: string): boolean {
    const before = this.sweeps.length;
    this.sweeps = this.sweeps.filter((s) => s.id !== id);
    return this.sweeps.length < before;
  }

  /** Removes every sweep (a full reset); answers how many. */
  clear(): number {
    const n = this.sweeps.length;
    this.sweeps = [];
    return n;
  }

  /** Removes the sweeps of one account (its reset). */
  forget(account: string): void {
    this.sweeps = this.sweeps.filter((s) => s.account !== account);
  }

  /**
   * The fault the first sweep arms for this call, recorded against `requestId`; null when none
   * strikes (no sweep for its operation or account, the operation resting or done).
   */
  strike(target: SweepTarget, requestId: string): { sweep: Sweep; respond: StrikeRespond } | null {
    const op = target.operation;
    if (op === null) return null;
    for (const sweep of this.sweeps) {
      if (sweep.operations !== null && !sweep.operations.includes(op)) continue;
      if (sweep.account !== null && sweep.account !== target.account()) continue;
      const state = sweep.state.get(op) ?? fresh();
      sweep.state.set(op, state);
      if (state.next >= sweep.faults.length) continue;
      if (state.resting) {
        state.resting = false;
        return null;
      }
      const fault = sweep.faults[state.next++]!;
      state.resting = true;
      state.strikes.push({ fault, request_id: requestId });
      const respond = sweepRespond(fault, sweep.hangMs);
      if (respond) return { sweep, respond };
    }
    return null;
  }
}

const fresh = (): OperationState => ({ next: 0, resting: false, strikes: [] });
