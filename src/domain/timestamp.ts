/** RFC 3339 UTC with milliseconds (DESIGN.md section 3). */
export function toTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
