/**
 * An instant as RFC 3339 UTC with milliseconds (DESIGN.md section 3), the one place that formats
 * instants; an invalid instant throws a RangeError.
 * @example toTimestamp(Date.UTC(2026, 0, 1)) // '2026-01-01T00:00:00.000Z'
 */
export function toTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
