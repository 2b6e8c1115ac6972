/**
 * The run engine's own state (issue 37): each account's settle in progress, the archives its
 * succeeded runs still owe, the POSTs being answered under an Idempotency-Key, the worker pool,
 * and who hears of the events it records. One per emulator (`deps.engine`), never module state.
 */

import type { SettlePool } from './settle-pool.js';

/** An event as the event log wrote it (engine/event-log.ts), in the account's `evt` stream. */
export interface RecordedEvent {
  id: string;
  accountId: string;
  type: string;
  resourceId: string;
  previousStatus: string | null;
  createdAt: string;
}

/**
 * Hears the events one `recordEvents` wrote, in order, inside the transaction that commits them:
 * work for after the commit goes through `store.onCommit` (a rollback drops it with the events).
 */
export type EventsListener = (events: readonly RecordedEvent[]) => void;

export class Engine {
  /** Per account, the settle in progress: the account's requests wait for it (sliced-settle.ts). */
  private readonly settles = new Map<string, Promise<void>>();
  /** Per account, the succeeded runs whose archives are still to build, in the order owed. */
  private readonly owed = new Map<string, Set<string>>();
  private readonly listeners: EventsListener[] = [];
  /** `account\0key` of POSTs with an Idempotency-Key still being answered (http/idempotency.ts). */
  readonly idempotencyInFlight = new Set<string>();

  /** @param settlePool worker threads for a settle's CPU-heavy work (ends and archives of long runs) */
  constructor(public settlePool: SettlePool) {}

  /** The account's settle in progress, if any (it settles to undefined, failed or not). */
  settleOf(accountId: string): Promise<void> | undefined {
    return this.settles.get(accountId);
  }

  /**
   * Runs `work` once the account's settle in progress (if any) is done, as the account's settle
   * in progress until it ends; answers what `work` answers.
   */
  settleAfter<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    const mine = (this.settles.get(accountId) ?? Promise.resolve()).then(work);
    const done = mine.then(
      () => undefined,
      () => undefined,
    );
    this.settles.set(accountId, done);
    void done.then(() => {
      if (this.settles.get(accountId) === done) this.settles.delete(accountId);
    });
    return mine;
  }

  /** Resolves once no account's settle is in progress (the tables are at rest). */
  async atRest(): Promise<void> {
    while (this.settles.size > 0) await Promise.all(this.settles.values());
  }

  /** Notes that run `runId` of the account owes its archive (built by the account's next settle). */
  oweArchive(accountId: string, runId: string): void {
    const owed = this.owed.get(accountId) ?? new Set<string>();
    this.owed.set(accountId, owed.add(runId));
  }

  /** The runs of the account that owe their archives, in order; the settle that builds them takes them out. */
  archivesOwed(accountId: string): Set<string> | undefined {
    return this.owed.get(accountId);
  }

  /** Forgets that the account owes archives (every one built). */
  archivesBuilt(accountId: string): void {
    this.owed.delete(accountId);
  }

  /** The owed archives by account (every account, or `account`'s), as a snapshot keeps them. */
  archivesOwedState(account: string | null): Record<string, string[]> {
    return Object.fromEntries(
      [...this.owed]
        .filter(([id]) => account === null || id === account)
        .map(([id, runs]) => [id, [...runs]]),
    );
  }

  /** Puts back a snapshot's owed archives: replacing all of them, or (with `account`) that account's. */
  restoreArchivesOwed(account: string | null, owed: Readonly<Record<string, readonly string[]>>) {
    if (account === null) this.owed.clear();
    else this.owed.delete(account);
    for (const [id, runs] of Object.entries(owed)) this.owed.set(id, new Set(runs));
  }

  /** Adds a listener to the events recorded from now on (the webhooks' deliveries, emulator.ts). */
  onEventsRecorded(listener: EventsListener): void {
    this.listeners.push(listener);
  }

  /** Tells every listener, in the order they subscribed, of the events just written. */
  eventsRecorded(events: readonly RecordedEvent[]): void {
    for (const listener of this.listeners) listener(events);
  }
}
