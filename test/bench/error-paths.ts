import {
  AUTH,
  type BenchContext,
  control,
  DEFAULT_ACCOUNT,
  fromRounds,
  type Scenario,
} from './context.js';
import { type LoadSpec, type LoadStats, load, WARMUP_SEC } from './load.js';

/** The baseline every error path is compared with, measured in the same alternating rounds. */
export const ERROR_BASELINE = 'emulator GET /v1/keys/me (error-path baseline)';
/** Issue 12 item 1: every error answer at least this fraction of keys/me's requests/s. */
export const ERROR_TARGET = 0.8;

interface ErrorPath {
  name: string;
  status: number;
  spec(ctx: BenchContext, scopedSecret: string): Pick<LoadSpec, 'method' | 'path' | 'headers'>;
}

/** Well formed, never created: resume looks it up and answers 404. */
export const UNKNOWN_RUN = 'eval_01KA0000000000000000000000';

/**
 * The answers an SDK's error-handling tests hammer (issue 12): each has one expected status, and
 * every request of its runs must get it.
 */
export const ERROR_PATHS: ErrorPath[] = [
  {
    name: 'emulator POST /v1/evaluations/{unknown}/resume (404)',
    status: 404,
    spec: () => ({ method: 'POST', path: `/v1/evaluations/${UNKNOWN_RUN}/resume`, headers: AUTH }),
  },
  {
    name: 'emulator GET /v1/keys/me, unknown key (401)',
    status: 401,
    spec: () => ({
      method: 'GET',
      path: '/v1/keys/me',
      headers: { authorization: 'Bearer svc_bench_unknown_key' },
    }),
  },
  {
    name: 'emulator GET /v1/evaluations, key without the scope (403)',
    status: 403,
    spec: (_ctx, secret) => ({
      method: 'GET',
      path: '/v1/evaluations',
      headers: { authorization: `Bearer ${secret}` },
    }),
  },
  {
    name: 'emulator GET /v1/keys/me, X-Emulator-Fault: 429',
    status: 429,
    spec: () => ({
      method: 'GET',
      path: '/v1/keys/me',
      headers: { ...AUTH, 'x-emulator-fault': '429' },
    }),
  },
  {
    name: 'emulator GET /v1/keys/me, X-Emulator-Fault: 409',
    status: 409,
    spec: () => ({
      method: 'GET',
      path: '/v1/keys/me',
      headers: { ...AUTH, 'x-emulator-fault': '409' },
    }),
  },
  {
    name: 'emulator GET /v1/evaluations?limit=0 (400)',
    status: 400,
    spec: () => ({ method: 'GET', path: '/v1/evaluations?limit=0', headers: AUTH }),
  },
];

/**
 * Issue 12 item 1: keys/me, then each error path, round after round, so that load from other
 * processes weighs on all alike; each path's ratio is taken against the keys/me of its round.
 */
export function errorPaths(): Scenario {
  let secret = '';
  return {
    name: 'error paths against keys/me, alternating',
    async setup(ctx) {
      const key = await control<{ secret: string }>(
        ctx,
        'POST',
        `/accounts/${DEFAULT_ACCOUNT}/keys`,
        { name: 'bench usage only', scopes: ['usage:read'] },
      );
      secret = key.secret;
    },
    async run(ctx) {
      const chosen = ERROR_PATHS;
      const base = { ...ctx.load, url: ctx.emulatorUrl };
      const keysMe: LoadSpec = { ...base, method: 'GET', path: '/v1/keys/me', headers: AUTH };
      const specs = chosen.map((p) => ({ ...base, ...p.spec(ctx, secret) }) as LoadSpec);
      for (const spec of [keysMe, ...specs]) await load({ ...spec, durationSec: WARMUP_SEC });
      const baseline: LoadStats[] = [];
      const rounds: LoadStats[][] = chosen.map(() => []);
      for (let i = 0; i < ctx.rounds; i++) {
        baseline.push(await load(keysMe));
        for (const [j, spec] of specs.entries()) rounds[j]!.push(await load(spec));
      }
      return [
        fromRounds(ERROR_BASELINE, baseline),
        ...chosen.map((p, j) => ({ ...fromRounds(p.name, rounds[j]!), expectedStatus: p.status })),
      ];
    },
  };
}

/** Issue 12 item 3: p99 at most this many ms at {@link P99_CONNECTIONS} connections. */
export const P99_TARGET_MS = 20;
export const P99_CONNECTIONS = 50;
export const P99_KEYS_ME = `emulator GET /v1/keys/me at ${P99_CONNECTIONS} connections`;
export const P99_NOT_FOUND = `emulator POST resume of an unknown id (404) at ${P99_CONNECTIONS} connections`;

/** Tails (issue 12 item 3): keys/me and the 404 path at 50 connections, alternating. */
export function tails(): Scenario {
  return {
    name: `p99 of keys/me and the 404 path at ${P99_CONNECTIONS} connections, alternating`,
    async setup() {},
    async run(ctx) {
      const base = { ...ctx.load, url: ctx.emulatorUrl, connections: P99_CONNECTIONS };
      const keysMe: LoadSpec = { ...base, method: 'GET', path: '/v1/keys/me', headers: AUTH };
      const notFound: LoadSpec = { ...base, ...ERROR_PATHS[0]!.spec(ctx, '') };
      await load({ ...keysMe, durationSec: WARMUP_SEC });
      await load({ ...notFound, durationSec: WARMUP_SEC });
      const a: LoadStats[] = [];
      const b: LoadStats[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        a.push(await load(keysMe));
        b.push(await load(notFound));
      }
      return [fromRounds(P99_KEYS_ME, a), { ...fromRounds(P99_NOT_FOUND, b), expectedStatus: 404 }];
    },
  };
}
