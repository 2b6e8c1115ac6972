/** Durations as flags write them: `250ms`, `5s`, `5m`, `2h`, `3d`, or bare seconds (`0`, `1.5`). */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;

/**
 * Milliseconds, or undefined for anything else.
 * @example parseDuration('5m') // 300000
 */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS];
  return Number.isSafeInteger(Math.round(ms)) ? Math.round(ms) : undefined;
}

/**
 * A comma-separated list of durations, or undefined if any entry is not one.
 * @example parseDurations('0,5s,5m') // [0, 5000, 300000]
 */
export function parseDurations(text: string): number[] | undefined {
  const all = text.split(',').map(parseDuration);
  return all.every((ms) => ms !== undefined) ? (all as number[]) : undefined;
}

/** A duration as the shortest whole unit writes it: `300000` -> `5m`. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const)
    if (ms !== 0 && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return ms === 0 ? '0' : `${ms}ms`;
}
