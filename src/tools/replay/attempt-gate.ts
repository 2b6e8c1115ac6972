import type { AttemptCounts } from '../../areas/bundles/bundle-contract.js';
import type { Bundle } from '../../areas/bundles/bundle-read.js';
import type { AttemptRef } from '../../areas/webhooks/deliveries.js';
import type { AttemptResult } from '../../areas/webhooks/send.js';

/** How long a replay waits for the webhook attempts a call came after (wall ms). */
const ATTEMPTS_WAIT_MS = 30_000;

export const counts = (c: AttemptCounts) => `${c.started} started, ${c.answered} answered`;

/**
 * The webhook attempts of a replay: none sent; each held until the call before which it had
 * started (or been answered) comes, then answered as recorded.
 */
export class AttemptGate {
  private started = 0;
  private answered = 0;
  private startsLet = 0;
  private answersLet = 0;
  private allowed: AttemptCounts = { started: 0, answered: 0 };
  private readonly results = new Map<string, AttemptResult>();
  private waiters: (() => void)[] = [];
  private released = false;

  constructor(bundle: Bundle) {
    for (const e of bundle.attempts)
      if (e.event === 'answered')
        this.results.set(refKey(e), {
          statusCode: e.status_code ?? null,
          error: e.error ?? null,
          responseBody: e.response_body ?? null,
        });
  }

  hooks() {
    return {
      beforeAttempt: async () => {
        await this.until(() => this.startsLet < this.allowed.started);
        this.startsLet += 1;
      },
      send: async (ref: AttemptRef): Promise<AttemptResult> => {
        await this.until(() => this.answersLet < this.allowed.answered);
        this.answersLet += 1;
        return (
          this.results.get(refKey(ref)) ?? {
            statusCode: null,
            error: 'This attempt was not in the bundle.',
            responseBody: null,
          }
        );
      },
      started: () => {
        this.started += 1;
        this.wake();
      },
      answered: () => {
        this.answered += 1;
        this.wake();
      },
    };
  }

  counts(): string {
    return counts({ started: this.started, answered: this.answered });
  }

  /** Lets the attempts run as far as `before`, and waits until they have. */
  async before(before: AttemptCounts): Promise<boolean> {
    this.allow(before);
    const reached = () => this.started >= before.started && this.answered >= before.answered;
    if (reached()) return true;
    const timer = new Promise<void>((resolve) => setTimeout(resolve, ATTEMPTS_WAIT_MS).unref());
    await Promise.race([this.until(reached), timer]);
    return reached();
  }

  allow(counts: AttemptCounts): void {
    this.allowed = {
      started: Math.max(this.allowed.started, counts.started),
      answered: Math.max(this.allowed.answered, counts.answered),
    };
    this.wake();
  }

  /** Lets everything held go (the replay is over). */
  release(): void {
    this.released = true;
    this.allowed = { started: Number.MAX_SAFE_INTEGER, answered: Number.MAX_SAFE_INTEGER };
    this.wake();
  }

  private until(ok: () => boolean): Promise<void> {
    if (ok() || this.released) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (ok() || this.released) resolve();
        else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const check of waiting) check();
  }
}

const refKey = (r: { delivery: string; series: number; number: number }) =>
  `${r.delivery}/${r.series}/${r.number}`;
