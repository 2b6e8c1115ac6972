/** `requests_per_minute` per account: a sliding 60 virtual seconds of admitted requests. */
const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  /** Admits a request at `now`, or answers the whole seconds (>= 1) until one would pass. */
  admit(accountId: string, limit: number, now: number): { ok: true } | { retryAfterS: number } {
    const times = this.windows.get(accountId) ?? [];
    this.windows.set(accountId, times);
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= now - WINDOW_MS) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length < limit) {
      times.push(now);
      return { ok: true };
    }
    // The request would pass once the oldest admitted ones leave the window.
    const freeAt = (times[times.length - limit] as number) + WINDOW_MS;
    return { retryAfterS: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
  }

  forget(accountId: string): void {
    this.windows.delete(accountId);
  }

  clear(): void {
    this.windows.clear();
  }
}
