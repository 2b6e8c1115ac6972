import { VirtualClock, wallNow } from '../clock.js';
import {
  CLOCK_LIMIT_MESSAGE,
  type ClockMode,
  MAX_VIRTUAL_MS,
  parseClockMode,
} from '../clock-mode.js';
import { invalidParam, MESSAGES } from '../errors.js';
import type { Account } from '../records.js';
import type { Store } from '../sqlite/store.js';

/**
 * One virtual clock per account, built from its row on first use. The anchor (virtual now at a
 * wall instant) is written when first used and on each change, so a `--db` file restarts a running
 * clock where it would have got to: `now = clock_now + (wall - clock_wall) * rate`.
 */
export class ClockRegistry {
  private readonly clocks = new Map<string, VirtualClock>();
  /** Told after an account's clock is set, advanced or changes mode (the webhook queues wake). */
  onChange: (accountId: string) => void = () => undefined;
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

  /** The account's mode and now, without building or anchoring its clock (a snapshot reads it). */
  reading(account: Account): { mode: ClockMode; now: number } {
    const mode = parseClockMode(account.clockMode) ?? 'manual';
    const clock =
      this.clocks.get(account.id) ??
      new VirtualClock(account.clockNow, mode, this.wall, account.clockWall ?? undefined);
    return { mode: clock.mode, now: clock.now() };
  }

  /** Changes mode and/or time, and records both on the account row. */
  update(account: Account, change: { mode?: ClockMode; now?: number }): VirtualClock {
    const clock = this.forAccount(account);
    if (change.mode) clock.setMode(change.mode);
    if (change.now !== undefined) clock.set(change.now);
    this.persist(account.id, clock);
    this.onChange(account.id);
    return clock;
  }

  /** `PUT /_control/accounts/{id}/clock`: a clock only moves forward (DESIGN.md section 4). */
  set(account: Account, change: { mode?: string; now?: string }): VirtualClock {
    const now = change.now === undefined ? undefined : Date.parse(change.now);
    if (now !== undefined && now < this.now(account))
      throw invalidParam('now', MESSAGES.clockBackwards);
    const mode = change.mode ? parseClockMode(change.mode) : undefined;
    return this.update(account, { mode, now });
  }

  /**
   * The instant an advance by `seconds` or `to` an instant reaches, checked: at most the last
   * instant a clock holds (400 naming `seconds`), never backward (400 naming `to`).
   */
  advanceTarget(account: Account, by: { seconds?: number; to?: string }): number {
    const from = this.now(account);
    const to = by.to === undefined ? from + Math.round(by.seconds! * 1000) : Date.parse(by.to);
    if (to > MAX_VIRTUAL_MS) throw invalidParam('seconds', CLOCK_LIMIT_MESSAGE);
    if (to < from) throw invalidParam('to', MESSAGES.clockBackwards);
    return to;
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
