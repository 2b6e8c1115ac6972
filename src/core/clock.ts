/** Virtual time per account (DESIGN.md section 4): with ids and the PRNG, the only wall reader. */

import { type ClockMode, MAX_VIRTUAL_MS, MIN_VIRTUAL_MS } from './clock-mode.js';

export { type ClockMode, parseClockMode } from './clock-mode.js';
export { toTimestamp } from './timestamp.js';

/** Virtual time stays within the instants every artifact can encode, whatever was stored. */
const within = (ms: number) => Math.max(MIN_VIRTUAL_MS, Math.min(ms, MAX_VIRTUAL_MS));

export const DEFAULT_CLOCK_START = Date.parse('2026-01-01T00:00:00.000Z');

/** Wall time in milliseconds. Used for `realtime`/`scaled` clocks and for uptime only. */
export function wallNow(): number {
  return Date.now();
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
    if (r === 0) return within(this.anchorVirtual);
    // A wall clock stepped backwards (or an anchor from a machine ahead of this one) never
    // takes virtual time back.
    const now = this.anchorVirtual + Math.floor(Math.max(0, this.wall() - this.anchorWall) * r);
    return within(now);
  }

  /** Wall ms until the clock reads `at` (0 if it does); null when it moves only when told. */
  wallMsUntil(at: number): number | null {
    const r = rate(this.currentMode);
    if (r === 0) return null;
    return Math.max(0, Math.ceil((at - this.now()) / r));
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
