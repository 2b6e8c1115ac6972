import type { BenchContext } from './context.js';
import { type LoadSpec, type LoadStats, load, WARMUP_SEC } from './load.js';

/**
 * Each load warmed up once, then all of them measured in turn, round after round (a, b, c, a, b,
 * c, ...), so that load from other processes on a shared machine weighs on all alike. Answers
 * each load's rounds, in the order given.
 */
export async function alternate(ctx: BenchContext, specs: LoadSpec[]): Promise<LoadStats[][]> {
  for (const spec of specs) await load({ ...spec, durationSec: WARMUP_SEC });
  const rounds: LoadStats[][] = specs.map(() => []);
  for (let i = 0; i < ctx.rounds; i++) {
    for (const [j, spec] of specs.entries()) rounds[j]!.push(await load(spec));
  }
  return rounds;
}
