/**
 * The outputs of the attempts a settle ends, computed ahead in the pool (settle-pool.ts) while
 * its windows wait for them, so that a window's transaction only writes them.
 */

import type { Deps } from './deps.js';
import type { RunRecord } from './records.js';
import type { EndOutputs } from './settle-jobs.js';

/** Outputs computed ahead for a run's end at `at`; `key` says which attempt and request. */
export interface ReadyEnd {
  key: string;
  outputs: EndOutputs;
}

interface PendingEnd {
  at: number;
  key: string;
  outputs: Promise<EndOutputs>;
}

/**
 * What the outputs of `record`'s end at `at` were computed from: a run reset and made again under
 * the same id while the settle waited is another attempt, whose end is computed in its window.
 */
export const endKey = (record: RunRecord, at: number) =>
  JSON.stringify([
    record.kind,
    record.request,
    record.state.run?.outcome,
    record.state.run?.attempt,
    at,
  ]);

/** The ends of a settle, their outputs under way in the pool. */
export class SettleEnds {
  private readonly pending = new Map<string, PendingEnd>();

  /** Starts the outputs of every end the pool takes; `ends`: the runs and the instants they end. */
  constructor(deps: Deps, ends: readonly { record: RunRecord; at: number }[]) {
    for (const { record, at } of ends) {
      if (!deps.engine.settlePool.takes(record)) continue;
      const outputs = deps.engine.settlePool.end(record);
      // Awaited by its window; a settle that stops before it must not leave a rejection unheard.
      outputs.catch(() => undefined);
      this.pending.set(record.id, { at, key: endKey(record, at), outputs });
    }
  }

  /** The outputs of the ends in the window up to `end` (only `runs`, when named), once computed. */
  async upTo(end: number, runs?: ReadonlySet<string>): Promise<Map<string, ReadyEnd>> {
    const ready = new Map<string, ReadyEnd>();
    for (const [id, { at, key, outputs }] of this.pending) {
      if (at > end || (runs && !runs.has(id))) continue;
      this.pending.delete(id);
      ready.set(id, { key, outputs: await outputs });
    }
    return ready;
  }
}
