/**
 * The target lines the load scenarios print: a ratio against a baseline measured in the same
 * rounds, and a p99 ceiling. On a shared machine requests/s move with whatever else runs, so a
 * ratio is taken per round (the two sides alternate) and the median decides; the server CPU per
 * request ratio is printed beside it, as it does not count time spent waiting for a core.
 */
import { median, type ScenarioResult, verdict } from './context.js';

export interface Ratio {
  label: string;
  measured: string;
  /**
   * The baseline's row, or the two rows measured just before and just after the measured one in
   * each round: their mean is the baseline, which takes out a machine's drift between the loads.
   */
  baseline: string | readonly [string, string];
  /** The measured side's requests/s at least this fraction of the baseline's. */
  atLeast: number;
}

const fixed = (ratios: number[]) => ratios.map((r) => r.toFixed(2)).join(' / ');

/** `<label>: 0.80x by requests/s (target >= 0.75x: met; per round ...; by CPU ...)`. */
export function ratioLine(rows: Map<string, ScenarioResult>, ratio: Ratio): string {
  const measured = rows.get(ratio.measured);
  const baseline = baselineOf(rows, ratio.baseline);
  if (!measured?.rounds || !baseline?.rounds) return `${ratio.label}: not measured`;
  const pairs = baseline.rounds.map((b, i) => [b, measured.rounds![i]!] as const);
  const rps = pairs.map(([b, m]) => m.rps / b.rps);
  const value = median(rps);
  let cpu = '';
  if (measured.cpuUsPerReq !== undefined && baseline.cpuUsPerReq !== undefined) {
    const cpuRatios = pairs.map(([b, m]) => b.cpuUsPerReq! / m.cpuUsPerReq!);
    const byCpu = median(cpuRatios);
    cpu =
      `; by server CPU per request ${byCpu.toFixed(2)}x: ${verdict(byCpu >= ratio.atLeast)}, ` +
      `${Math.round(baseline.cpuUsPerReq)} us vs ${Math.round(measured.cpuUsPerReq)} us`;
  }
  return (
    `${ratio.label}: ${value.toFixed(2)}x by requests/s (target >= ${ratio.atLeast.toFixed(2)}x: ` +
    `${verdict(value >= ratio.atLeast)}; per round ${fixed(rps)}${cpu})`
  );
}

/** A baseline's row; of two rows, one whose rounds are theirs averaged, round by round. */
function baselineOf(
  rows: Map<string, ScenarioResult>,
  names: string | readonly [string, string],
): Pick<ScenarioResult, 'rounds' | 'cpuUsPerReq'> | undefined {
  if (typeof names === 'string') return rows.get(names);
  const [before, after] = names.map((name) => rows.get(name));
  if (!before?.rounds || !after?.rounds) return undefined;
  const mean = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? undefined : (a + b) / 2;
  const rounds = before.rounds.map((b, i) => {
    const a = after.rounds![i]!;
    const cpuUsPerReq = mean(b.cpuUsPerReq, a.cpuUsPerReq);
    return {
      ...b,
      rps: (b.rps + a.rps) / 2,
      ...(cpuUsPerReq === undefined ? {} : { cpuUsPerReq }),
    };
  });
  const cpuUsPerReq = mean(before.cpuUsPerReq, after.cpuUsPerReq);
  return { rounds, ...(cpuUsPerReq === undefined ? {} : { cpuUsPerReq }) };
}

/** `p99 <name>: 4.1 ms (target <= 20 ms: met; per round ...)`, the median of the rounds' p99. */
export function p99Line(
  rows: Map<string, ScenarioResult>,
  name: string,
  ceilingMs: number,
): string {
  const row = rows.get(name);
  if (row?.p99Ms === undefined) return `p99 ${name}: not measured`;
  const each = row.rounds?.map((r) => r.p99Ms.toFixed(1)).join(' / ') ?? '';
  return (
    `p99 ${name}: ${row.p99Ms.toFixed(1)} ms (target <= ${ceilingMs} ms: ` +
    `${verdict(row.p99Ms <= ceilingMs)}; per round ${each})`
  );
}
