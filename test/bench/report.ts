import type { ScenarioResult } from './context.js';

const HEADERS = [
  'scenario',
  'req/s (mean)',
  'p99 ms',
  'server CPU us/req',
  'time ms',
  'non-2xx',
  'errors',
  'notes',
];
const RIGHT = new Set([1, 2, 3, 4, 5, 6]);

const num = (n: number | undefined, digits = 0) =>
  n === undefined ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** A plain-text table, one row per scenario. */
export function table(results: ScenarioResult[]): string {
  const rows = results.map((r) => [
    r.name,
    num(r.rps),
    num(r.p99Ms, 2),
    num(r.cpuUsPerReq),
    num(r.ms),
    String(r.non2xx),
    String(r.errors),
    r.notes ?? '',
  ]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (RIGHT.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
