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

  /** The admitted instants of every account, or of one, for a world snapshot. */
  windowsOf(accountId?: string): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const [id, times] of this.windows)
      if (accountId === undefined || id === accountId) out[id] = [...times];
    return out;
  }

  /** Puts back saved windows: replacing all of them, or (with `accountId`) that account's. */
  restore(windows: Readonly<Record<string, readonly number[]>>, accountId?: string): void {
    if (accountId === undefined) this.windows.clear();
    else this.windows.delete(accountId);
    for (const [id, times] of Object.entries(windows))
      if (accountId === undefined || id === accountId) this.windows.set(id, [...times]);
  }

  forget(accountId: string): void {
    this.windows.delete(accountId);
  }

  clear(): void {
    this.windows.clear();
  }
}
