/** Clock modes of accounts (DESIGN.md section 4): `manual`, `realtime` or `scaled:N`. */
export type ClockMode = 'manual' | 'realtime' | `scaled:${number}`;

/** Parses `manual`, `realtime` or `scaled:N` (N > 0); undefined for anything else. */
export function parseClockMode(value: string): ClockMode | undefined {
  if (value === 'manual' || value === 'realtime') return value;
  const match = /^scaled:(\d+(?:\.\d+)?)$/.exec(value);
  if (match && Number(match[1]) > 0) return value as ClockMode;
  return undefined;
}
