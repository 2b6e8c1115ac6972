import { alternate } from './alternate.js';
import { type BenchContext, fromRounds, KEYS_ME, type Scenario } from './context.js';
import type { ServerProcess } from './server-process.js';
import { p99Line, ratioLine } from './targets.js';

export const FLOOR = 'floor GET /v1/keys/me (Hono + zod-openapi)';
export const KEYS_ME_ROW = 'emulator GET /v1/keys/me';
/** Issue 26: keys/me at least this fraction of the floor's requests/s. */
export const FLOOR_TARGET = 0.75;
/** Issue 26: the p99 of reads and error answers at most this many ms. */
export const READ_P99_MS = 20;

export function keysMeSpec(ctx: BenchContext, server: ServerProcess) {
  return { ...ctx.load, server, requests: [KEYS_ME] };
}

/** The floor and the emulator answering the same `GET /v1/keys/me`, in alternating rounds. */
export function floorAndKeysMe(): Scenario {
  return {
    name: 'keys/me against the floor, alternating',
    async run(ctx) {
      const [floor, keysMe] = await alternate(ctx, [
        keysMeSpec(ctx, ctx.floor),
        keysMeSpec(ctx, ctx.emulator),
      ]);
      return [fromRounds(FLOOR, floor!), fromRounds(KEYS_ME_ROW, keysMe!)];
    },
    targets: (rows) => [
      ratioLine(rows, {
        label: 'keys/me / floor',
        measured: KEYS_ME_ROW,
        baseline: FLOOR,
        atLeast: FLOOR_TARGET,
      }),
      p99Line(rows, KEYS_ME_ROW, READ_P99_MS),
    ],
  };
}
