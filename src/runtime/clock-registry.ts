import type { Account } from '../domain/records.js';
import type { Store } from '../store/store.js';
import { type ClockMode, parseClockMode, VirtualClock, wallNow } from './clock.js';

/**
 * One virtual clock per account, built from the account row on first use. Each clock's anchor
 * (virtual now at a wall instant) is written to the row when it is first used and whenever it
 * changes, so a `--db` file restarts a `realtime` or `scaled:N` clock where it would have got to,
 * never earlier: `now = clock_now + (wall - clock_wall) * rate`. Nothing is written per request.
 */
export class ClockRegistry {
  private readonly clocks = new Map<string, VirtualClock>();
  constructor(
    private readonly store: Store,
    private readonly wall: () => number = wallNow,
  ) {}

  forAccount(account: Account): VirtualClock {
    let clock = this.clocks.get(account.id);
    if (!clock) {
      const mode = parseClockMode(account.clockMode) ?? 'manual';
      clock = new VirtualClock(account.clockNow, mode, this.wall, account.clockWall ?? undefined);
      this.clocks.set(account.id, clock);
      if (account.clockWall === null) this.persist(account.id, clock);
    }
    return clock;
  }

  now(account: Account): number {
    return this.forAccount(account).now();
  }

  /** Changes mode and/or time, and records both on the account row. */
  update(account: Account, change: { mode?: ClockMode; now?: number }): VirtualClock {
    const clock = this.forAccount(account);
    if (change.mode) clock.setMode(change.mode);
    if (change.now !== undefined) clock.set(change.now);
    this.persist(account.id, clock);
    return clock;
  }

  forget(accountId: string): void {
    this.clocks.delete(accountId);
  }

  clear(): void {
    this.clocks.clear();
  }

  private persist(accountId: string, clock: VirtualClock): void {
    const { virtual, wall } = clock.anchor();
    this.store.accounts.setClock(accountId, { mode: clock.mode, now: virtual, wall });
  }
}
