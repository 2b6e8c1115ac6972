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
 * The latest virtual instant any clock reaches (inferred): tar headers hold mtime in 11 octal
 * digits (to 2242), ULIDs 48 bits of ms, RFC 3339 year 9999; 2200 leaves room past the longest run
 * a request can schedule. Set and advance past it answer 400, running clocks stop there, and a
 * clock stored past it reads as the limit.
 */
export const MAX_VIRTUAL_MS = Date.parse('2200-01-01T00:00:00.000Z');
export const MAX_VIRTUAL_TIMESTAMP = '2200-01-01T00:00:00.000Z';
/** The message of every 400 for an instant past the limit. */
export const CLOCK_LIMIT_MESSAGE = `Virtual time cannot pass ${MAX_VIRTUAL_TIMESTAMP}, the latest instant every artifact (archive tar headers, ids, timestamps) can encode.`;

/**
 * The earliest virtual instant (inferred): tar headers and ULIDs hold no time before the Unix
 * epoch. Clocks set, started or loaded before it answer 400; a clock stored before it reads as it.
 */
export const MIN_VIRTUAL_MS = 0;
export const MIN_VIRTUAL_TIMESTAMP = '1970-01-01T00:00:00.000Z';
/** The message of every 400 for an instant before the floor. */
export const CLOCK_FLOOR_MESSAGE = `Virtual time cannot be before ${MIN_VIRTUAL_TIMESTAMP}, the earliest instant archive tar headers and ids can encode.`;
