/**
 * A bound on how many delivery attempts are under way at once, across every endpoint, so that a
 * long advance's retries leave the event loop free for other accounts' requests. A slot is held
 * while an attempt runs, at most `holdMs` of wall time: a receiver that is slow to answer keeps
 * its attempt going outside the bound, so hanging receivers never hold the others back.
 */
export class AttemptSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    size: number,
    private readonly holdMs: number,
  ) {
    this.free = size;
  }

  /** Waits for a slot; answers the function that gives it back (once; later calls do nothing). */
  async take(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    const give = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
    const timer = setTimeout(give, this.holdMs);
    return give;
  }
}
