/**
 * Virtual time (DESIGN.md section 4). The only module besides the id and PRNG modules that reads
 * the wall clock. Each account has its own clock, so parallel tests never move each other's time.
 */

export type ClockMode = 'manual' | 'realtime' | `scaled:${number}`;

export const DEFAULT_CLOCK_START = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * The latest virtual instant any clock reaches (our inference, issue 9). Every artifact must
 * encode every instant a settle can apply: archive tar headers hold mtime in 11 octal digits (up
 * to 2242-03-16T12:56:31Z), ULID ids 48 bits of ms (year 10889), RFC 3339 timestamps year 9999.
 * 2200 leaves 42 years of headroom under the tar limit, more than the longest run a request can
 * schedule (queue + 5 phases of 1 day each + 10,000 episodes of 1 day: about 27.4 years). A clock
 * never passes it: set and advance past it answer 400, `realtime`/`scaled` clocks stop there,
 * and a clock stored past it (by an older emulator) reads as the limit.
 */
export const MAX_VIRTUAL_MS = Date.parse('2200-01-01T00:00:00.000Z');
export const MAX_VIRTUAL_TIMESTAMP = '2200-01-01T00:00:00.000Z';
/** The message of every 400 for an instant past the limit. */
export const CLOCK_LIMIT_MESSAGE = `Virtual time cannot pass ${MAX_VIRTUAL_TIMESTAMP}, the latest instant every artifact (archive tar headers, ids, timestamps) can encode.`;

/** Wall time in milliseconds. Used for `realtime`/`scaled` clocks and for uptime only. */
export function wallNow(): number {
  return Date.now();
}

/** Parses `manual`, `realtime` or `scaled:N` (N > 0); undefined for anything else. */
export function parseClockMode(value: string): ClockMode | undefined {
  if (value === 'manual' || value === 'realtime') return value;
  const match = /^scaled:(\d+(?:\.\d+)?)$/.exec(value);
  if (match && Number(match[1]) > 0) return value as ClockMode;
  return undefined;
}

function rate(mode: ClockMode): number {
  if (mode === 'manual') return 0;
  if (mode === 'realtime') return 1;
  return Number(mode.slice('scaled:'.length));
}

/**
 * One virtual clock: `now = anchorVirtual + (wall - anchorWall) * rate`. Setting the mode or the
 * time re-anchors, so virtual time never jumps when the mode changes.
 */
export class VirtualClock {
  private anchorVirtual: number;
  private anchorWall: number;

  /** `anchorWall`: the wall time at which the clock stood at `start` (default: now). */
  constructor(
    start: number,
    private currentMode: ClockMode,
    private readonly wall: () => number = wallNow,
    anchorWall?: number,
  ) {
    this.anchorVirtual = start;
    this.anchorWall = anchorWall ?? wall();
  }

  /** Where the clock is anchored: virtual ms `virtual` at wall ms `wall`. */
  anchor(): { virtual: number; wall: number } {
    return { virtual: this.anchorVirtual, wall: this.anchorWall };
  }

  get mode(): ClockMode {
    return this.currentMode;
  }

  now(): number {
    const r = rate(this.currentMode);
    if (r === 0) return Math.min(this.anchorVirtual, MAX_VIRTUAL_MS);
    // A wall clock stepped backwards (or an anchor from a machine ahead of this one) never
    // takes virtual time back.
    const now = this.anchorVirtual + Math.floor(Math.max(0, this.wall() - this.anchorWall) * r);
    return Math.min(now, MAX_VIRTUAL_MS);
  }

  setMode(mode: ClockMode): void {
    this.anchorVirtual = this.now();
    this.anchorWall = this.wall();
    this.currentMode = mode;
  }

  /** Moves to `to`. Callers reject a move backwards; the clock itself only re-anchors. */
  set(to: number): void {
    this.anchorVirtual = to;
    this.anchorWall = this.wall();
  }
}

/** RFC 3339 UTC with milliseconds (DESIGN.md section 3). */
export function toTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
