import { alternate } from './alternate.js';
import {
  AUTH,
  control,
  DEFAULT_ACCOUNT,
  fromRounds,
  type Scenario,
  type ScenarioResult,
} from './context.js';
import type { LoadRequest } from './load.js';
import type { ServerProcess } from './server-process.js';
import { keysMeSpec, READ_P99_MS } from './speed.js';
import { p99Line, ratioLine } from './targets.js';

/** The floor's keys/me and its own 400 on the stock validation path, in the same rounds. */
export const FLOOR_KEYS_ME = 'floor GET /v1/keys/me (error-path rounds)';
export const FLOOR_400 = 'floor GET /v1/evaluations?limit=0 (400, stock defaultHook)';

/**
 * The baseline every error path is compared with: keys/me, measured before the first error path
 * of each round and after each (`n` counts from 1), so that each path has one just before and one
 * just after it.
 */
export const errorBaseline = (n: number) => `emulator GET /v1/keys/me (error-path baseline ${n})`;
/** Issue 26: every error answer at least this fraction of keys/me's requests/s (but the 400). */
export const ERROR_TARGET = 0.8;

export interface ErrorPath {
  name: string;
  status: number;
  /** `scopedSecret`: a key of the default account without the evaluations scopes. */
  request(scopedSecret: string): LoadRequest;
}

/** Well formed, never created: resume looks it up and answers 404. */
export const UNKNOWN_RUN = 'eval_01KA0000000000000000000000';

/**
 * The answers an SDK's error-handling tests hammer, as issue 26 lists them: 404, 401, 403, 400 and
 * the faulted 409 and 429. Every request of a path's runs must get its one status.
 */
export const ERROR_PATHS: ErrorPath[] = [
  {
    name: 'emulator POST /v1/evaluations/{unknown}/resume (404)',
    status: 404,
    request: () => ({
      method: 'POST',
      path: `/v1/evaluations/${UNKNOWN_RUN}/resume`,
      headers: AUTH,
    }),
  },
  {
    name: 'emulator GET /v1/keys/me, unknown key (401)',
    status: 401,
    request: () => ({
      method: 'GET',
      path: '/v1/keys/me',
      headers: { authorization: 'Bearer svc_bench_unknown_key' },
    }),
  },
  {
    name: 'emulator GET /v1/evaluations, key without the scope (403)',
    status: 403,
    request: (secret) => ({
      method: 'GET',
      path: '/v1/evaluations',
      headers: { authorization: `Bearer ${secret}` },
    }),
  },
  {
    name: 'emulator GET /v1/evaluations?limit=0 (400)',
    status: 400,
    request: () => ({ method: 'GET', path: '/v1/evaluations?limit=0', headers: AUTH }),
  },
  {
    name: 'emulator GET /v1/keys/me, X-Emulator-Fault: 409',
    status: 409,
    request: () => ({
      method: 'GET',
      path: '/v1/keys/me',
      headers: { ...AUTH, 'x-emulator-fault': '409' },
    }),
  },
  {
    name: 'emulator GET /v1/keys/me, X-Emulator-Fault: 429',
    status: 429,
    request: () => ({
      method: 'GET',
      path: '/v1/keys/me',
      headers: { ...AUTH, 'x-emulator-fault': '429' },
    }),
  },
];

/** A key of the default account that may read usage only, for the 403 path. */
export async function scopedSecret(emulator: ServerProcess): Promise<string> {
  const path = `/accounts/${DEFAULT_ACCOUNT}/keys`;
  const body = { name: 'bench usage only', scopes: ['usage:read'] };
  return (await control<{ secret: string }>(emulator, 'POST', path, body)).secret;
}

/**
 * keys/me, then each error path followed by keys/me again, round after round; each path's ratio
 * against the mean of the keys/me just before and just after it in its round. A shared machine's
 * speed drifts within a round (keys/me's rps moved by a third between two of its loads), and a
 * path compared with a keys/me measured a minute earlier took that drift for its own.
 */
export function errorPaths(): Scenario {
  return {
    name: 'error paths against keys/me, alternating',
    async run(ctx) {
      const secret = await scopedSecret(ctx.emulator);
      const keysMe = keysMeSpec(ctx, ctx.emulator);
      const specs = ERROR_PATHS.flatMap((p) => [
        { ...keysMe, requests: [p.request(secret)] },
        keysMe,
      ]);
      const floor400 = {
        ...keysMeSpec(ctx, ctx.floor),
        requests: [{ method: 'GET' as const, path: '/v1/evaluations?limit=0', headers: AUTH }],
      };
      const [floorKeys, floorBad, ...emulator] = await alternate(ctx, [
        keysMeSpec(ctx, ctx.floor),
        floor400,
        keysMe,
        ...specs,
      ]);
      return [
        fromRounds(FLOOR_KEYS_ME, floorKeys!),
        { ...fromRounds(FLOOR_400, floorBad!), expectedStatuses: [400] },
        // In the order measured: keys/me at the even places, the paths between them.
        ...emulator.map((rounds, i) => {
          if (i % 2 === 0) return fromRounds(errorBaseline(i / 2 + 1), rounds);
          const p = ERROR_PATHS[(i - 1) / 2]!;
          return { ...fromRounds(p.name, rounds), expectedStatuses: [p.status] };
        }),
      ];
    },
    targets: (rows) => [
      floorLine(rows),
      ...ERROR_PATHS.flatMap((p, j) => [
        ratioLine(rows, {
          label: `${p.name.replace(/^emulator /, '')} / keys/me`,
          measured: p.name,
          baseline: [errorBaseline(j + 1), errorBaseline(j + 2)],
          // Issue 36: a 400 as close to keys/me as the floor's own 400 is to the floor's keys/me.
          atLeast: p.status === 400 ? (floorRatio(rows) ?? ERROR_TARGET) : ERROR_TARGET,
        }),
        p99Line(rows, p.name, READ_P99_MS),
      ]),
    ],
  };
}

/** The stock path's own 400 against its own keys/me: what no emulator on that path can beat. */
function floorLine(rows: Map<string, ScenarioResult>): string {
  const ratio = floorRatio(rows);
  if (ratio === undefined) return `${FLOOR_400}: not measured`;
  return `floor 400 / floor keys/me: ${ratio.toFixed(2)} (the bare Hono + zod-openapi server's own validation failure: the emulator's 400 is held to it)`;
}

/** The floor's own 400 against its keys/me, the medians of their rounds. */
function floorRatio(rows: Map<string, ScenarioResult>): number | undefined {
  const keys = rows.get(FLOOR_KEYS_ME)?.rps;
  const bad = rows.get(FLOOR_400)?.rps;
  return keys && bad ? bad / keys : undefined;
}
