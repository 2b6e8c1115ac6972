/** The control API's clock (DESIGN.md section 5): read it, set it, advance it. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { accountOf } from '../../core/accounts/account-of.js';
import { toTimestamp } from '../../core/clock.js';
import { ClockInstant, ClockModeSchema } from '../../core/clock-inputs.js';
import { errorResponses, jsonResponse, Timestamp } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import type { Deps } from '../../engine/deps.js';
import { settleSliced } from '../../engine/sliced-settle.js';

const ClockView = z
  .object({ account_id: z.string(), now: Timestamp, mode: z.string() })
  .openapi('ControlClock', {
    example: {
      account_id: 'acct_00000000000000000000000001',
      now: '2026-01-01T00:01:00.000Z',
      mode: 'manual',
    },
  });

const Transition = z
  .object({
    at: Timestamp,
    resource: z.string(),
    from: z.string(),
    to: z.string(),
    phase: z.string().nullable(),
  })
  .openapi('ControlTransition');

export const getClockRoute = route({
  method: 'get',
  path: '/accounts/{account_id}/clock',
  operationId: 'getClock',
  summary: "The account's virtual clock",
  description:
    'The virtual clock of the account: `now` and its mode (`manual`, `realtime` or `scaled:N`).',
  request: { params: AccountParam },
  responses: { 200: jsonResponse(ClockView, 'The clock.'), ...errorResponses([404]) },
});

export const setClockRoute = route({
  method: 'put',
  path: '/accounts/{account_id}/clock',
  operationId: 'setClock',
  summary: 'Set the mode, or move `now` forward',
  description:
    'Sets the clock mode, or moves `now` forward to an instant (never backward). Transitions due by then are applied.',
  request: {
    params: AccountParam,
    body: json(
      z
        .object({ mode: ClockModeSchema.optional(), now: ClockInstant.optional() })
        .strict()
        .openapi({ example: { mode: 'manual' } }),
    ),
  },
  responses: { 200: jsonResponse(ClockView, 'The clock.'), ...errorResponses([400, 404]) },
});

const MAX_ADVANCE_S = 10 * 365 * 86_400;

/** Exactly one of `seconds` and `to`: one object with a refinement, so `param` names the field. */
const AdvanceBody = z
  .object({
    seconds: z.number().min(0).max(MAX_ADVANCE_S).optional(),
    to: ClockInstant.optional(),
  })
  .strict()
  .refine((b) => (b.seconds === undefined) !== (b.to === undefined), {
    message: 'give exactly one of seconds and to',
  })
  .openapi({ example: { seconds: 60 } });

/** The advance body in the control document: `oneOf` the two, so "Try it out" offers one. */
export const ADVANCE_BODY_SCHEMA = {
  oneOf: [
    {
      type: 'object',
      title: 'By seconds',
      properties: {
        seconds: {
          type: 'number',
          minimum: 0,
          maximum: MAX_ADVANCE_S,
          description: 'Seconds to move the clock forward.',
        },
      },
      required: ['seconds'],
      additionalProperties: false,
    },
    {
      type: 'object',
      title: 'To an instant',
      properties: {
        to: {
          type: 'string',
          format: 'date-time',
          description: 'The instant to move the clock to.',
        },
      },
      required: ['to'],
      additionalProperties: false,
    },
  ],
  example: { seconds: 60 },
};

export const advanceClockRoute = route({
  method: 'post',
  path: '/accounts/{account_id}/clock/advance',
  operationId: 'advanceClock',
  summary: 'Advance by seconds or to an instant; answers the transitions applied, in order',
  description:
    'Moves the clock forward by `seconds`, or to the instant `to`; give exactly one. Every run transition due by then is applied in time order and listed in the answer.',
  request: { params: AccountParam, body: json(AdvanceBody) },
  responses: {
    200: jsonResponse(
      ClockView.extend({ transitions: z.array(Transition) }).openapi({
        example: {
          account_id: 'acct_00000000000000000000000001',
          now: '2026-01-01T00:01:00.000Z',
          mode: 'manual',
          transitions: [
            {
              at: '2026-01-01T00:00:00.500Z',
              resource: 'eval_01KDVDNA00FBZ34S3TAF1ZB8D7',
              from: 'queued',
              to: 'processing',
              phase: 'materializing',
            },
          ],
        },
      }),
      'Advanced.',
    ),
    ...errorResponses([400, 404]),
  },
});

export function registerClock(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const clockView = (id: string) => {
    const clock = deps.clocks.forAccount(accountOf(deps, id));
    return { account_id: id, now: toTimestamp(clock.now()), mode: clock.mode };
  };

  app.openapi(getClockRoute, (c) => c.json(clockView(c.req.valid('param').account_id), 200));

  app.openapi(setClockRoute, (c) => {
    const acct = accountOf(deps, c.req.valid('param').account_id);
    deps.clocks.set(acct, c.req.valid('json'));
    return c.json(clockView(acct.id), 200);
  });

  app.openapi(advanceClockRoute, async (c) => {
    const acct = accountOf(deps, c.req.valid('param').account_id);
    const to = deps.clocks.advanceTarget(acct, c.req.valid('json'));
    deps.clocks.update(acct, { now: to });
    // In slices: other accounts' requests are served while a long advance is applied.
    const transitions = (await settleSliced(deps, acct, to)) ?? [];
    return c.json({ ...clockView(acct.id), transitions }, 200);
  });
}
