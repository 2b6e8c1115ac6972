/** Clock modes of accounts (DESIGN.md section 4): `manual`, `realtime` or `scaled:N`. */
export type ClockMode = 'manual' | 'realtime' | `scaled:${number}`;

/** Parses `manual`, `realtime` or `scaled:N` (N > 0); undefined for anything else. */
export function parseClockMode(value: string): ClockMode | undefined {
  if (value === 'manual' || value === 'realtime') return value;
  const match = /^scaled:(\d+(?:\.\d+)?)$/.exec(value);
  if (match && Number(match[1]) > 0) return value as ClockMode;
  return undefined;
}

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
