import { setImmediate } from 'node:timers';

/**
 * How webhook work shares the event loop with requests: a delivery attempt waits for a turn
 * before it starts (recorded, built, signed and sent) and again before its answer is recorded,
 * and at most `perTurn` of those steps are made per turn of the event loop, so that a long
 * advance's retries leave other accounts' requests fast. Waiting for a receiver's answer takes no
 * turn: a receiver that never answers holds only its own endpoint's queue. Steps waiting for a
 * turn are taken by account in rotation, oldest first within an account, so one account's many
 * endpoints never queue ahead of another account. (`setImmediate` is `node:timers`' own: a test
 * that fakes the global timers still gets its deliveries.)
 */
export class AttemptTurns {
  /** Each account's waiting steps, oldest first; accounts in the order of their next turn. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private scheduled = false;

  constructor(private readonly perTurn: number) {}

  /**
   * Resolves in a coming turn of the event loop, when `accountId`'s step comes up.
   * @example await turns.next(accountId); send();
   */
  next(accountId: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(accountId);
      if (queue) queue.push(resolve);
      else this.waiting.set(accountId, [resolve]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (let i = 0; i < this.perTurn; i++) this.nextStep()?.();
      this.schedule();
    });
  }

  /** The oldest waiting step of the account whose turn it is; that account goes to the back. */
  private nextStep(): (() => void) | undefined {
    const turn = this.waiting.entries().next();
    if (turn.done) return undefined;
    const [accountId, queue] = turn.value;
    const step = queue.shift();
    this.waiting.delete(accountId);
    if (queue.length > 0) this.waiting.set(accountId, queue);
    return step;
  }
}
