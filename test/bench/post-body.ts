import { alternate } from './alternate.js';
import { AUTH, fromRounds, type Scenario } from './context.js';
import { UNKNOWN_RUN } from './error-paths.js';
import type { LoadRequest } from './load.js';
import { READ_P99_MS } from './speed.js';
import { p99Line, ratioLine } from './targets.js';

export const FLOOR_POST = 'floor POST /v1/evaluations/{unknown}/resume, body {} (404)';
export const POST_EMPTY_JSON = 'emulator POST /v1/evaluations/{unknown}/resume, body {} (404)';
export const POST_NO_BODY = 'emulator POST /v1/evaluations/{unknown}/resume, no body (404)';
/** Issue 36 item 11: a POST with the `{}` body at least this fraction of the floor's. */
export const POST_BODY_TARGET = 0.6;

/**
 * The `{}` JSON body many SDKs send on every POST, to an operation that takes no body (the API
 * document's resume: "Request body: none"), with `Content-Type: application/json`.
 */
export const EMPTY_JSON_RESUME: LoadRequest = {
  method: 'POST',
  path: `/v1/evaluations/${UNKNOWN_RUN}/resume`,
  headers: { ...AUTH, 'content-type': 'application/json' },
  body: '{}',
};

/**
 * The floor and the emulator answering the same POST with `{}` (an unknown run: 404, nothing
 * written), and the emulator's same POST without a body beside them, in alternating rounds.
 */
export function postWithBody(): Scenario {
  return {
    name: 'POST with a {} body, the floor and the emulator alternating',
    async run(ctx) {
      const spec = { ...ctx.load, requests: [EMPTY_JSON_RESUME] };
      const noBody = { ...EMPTY_JSON_RESUME, headers: AUTH, body: undefined };
      const [floor, emulator, bare] = await alternate(ctx, [
        { ...spec, server: ctx.floor },
        { ...spec, server: ctx.emulator },
        { ...spec, server: ctx.emulator, requests: [noBody] },
      ]);
      return [
        { ...fromRounds(FLOOR_POST, floor!), expectedStatuses: [404] },
        { ...fromRounds(POST_EMPTY_JSON, emulator!), expectedStatuses: [404] },
        { ...fromRounds(POST_NO_BODY, bare!), expectedStatuses: [404] },
      ];
    },
    targets: (rows) => [
      ratioLine(rows, {
        label: 'POST with {} / floor',
        measured: POST_EMPTY_JSON,
        baseline: FLOOR_POST,
        atLeast: POST_BODY_TARGET,
      }),
      p99Line(rows, POST_EMPTY_JSON, READ_P99_MS),
    ],
  };
}
