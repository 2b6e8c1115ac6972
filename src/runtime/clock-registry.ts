import type { Account } from '../domain/records.js';
import type { Store } from '../store/store.js';
import { type ClockMode, parseClockMode, VirtualClock, wallNow } from './clock.js';

/**
 * One virtual clock per account, built from the account row on first use. Clock changes are
 * written back to the row so a `--db` file resumes at the same virtual time after a restart.
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
      clock = new VirtualClock(
        account.clockNow,
        parseClockMode(account.clockMode) ?? 'manual',
        this.wall,
      );
      this.clocks.set(account.id, clock);
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
    const fresh = this.store.accounts.get(account.id) ?? account;
    this.store.accounts.update({ ...fresh, clockMode: clock.mode, clockNow: clock.now() });
    return clock;
  }

  forget(accountId: string): void {
    this.clocks.delete(accountId);
  }

  clear(): void {
    this.clocks.clear();
  }
}
