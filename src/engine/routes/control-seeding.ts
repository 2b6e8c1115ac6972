/** Control seeding (DESIGN.md section 5): any kind through `/runs`, some in their own terms too. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { accountOf } from '../../core/accounts/account-of.js';
import { baseUrl } from '../../core/base-url.js';
import { errorResponses, jsonResponse } from '../../core/contract.js';
import { AccountParam, json, route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import type { Account } from '../../core/records.js';
import { runSeedInput } from '../contract/seed-input.js';
import type { Deps } from '../deps.js';
import type { RunRecord } from '../records.js';
import type { KindSeed } from '../run-kind.js';
import { seedKind, seedRun } from '../seed-run.js';
import { settleSliced } from '../sliced-settle.js';
import { deriveState } from '../timeline/state.js';
import { toRunBody } from '../timeline/view.js';

export const seedRunRoute = (RunSeedInput: z.ZodType, kindNames: string) =>
  route({
    method: 'post',
    path: '/accounts/{account_id}/runs',
    operationId: 'seedRun',
    summary: 'A run of any kind in a given state, or on the clock with an outcome plan',
    description: `\`kind\` names the run kind (${kindNames}); the other fields are the kind's create body, as \`POST /v1/<kind>\` takes it, plus the seed fields. Answers the run as \`GET /v1/<kind>/{id}\` shows it.`,
    request: { params: AccountParam, body: json(RunSeedInput) },
    responses: {
      201: jsonResponse(
        z
          .object({ id: z.string(), object: z.string(), status: z.string() })
          .catchall(z.unknown())
          .openapi('ControlRun'),
        'Created: the run as its kind shows it.',
      ),
      ...errorResponses([400, 402, 404], {
        402: 'A run put on the clock is charged like a created one: `insufficient_tokens`.',
      }),
    },
  });

/** A kind's own seeding route, from its registration. */
const kindSeedRoute = (collection: string, seed: KindSeed) =>
  route({
    method: 'post',
    path: `/accounts/{account_id}/${collection}`,
    operationId: seed.operationId,
    summary: seed.summary,
    description: seed.description,
    request: { params: AccountParam, body: json(seed.input) },
    responses: {
      201: jsonResponse(seed.response, 'Created.'),
      ...errorResponses(
        Object.keys(seed.errors).map(Number),
        seed.errors as Record<number, string>,
      ),
    },
  });

export function registerSeeding(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const names = deps.kinds.list.map(({ kind }) => `\`${kind.name}\``).join(', ');
  const kindNames = deps.kinds.list.map(({ kind }) => kind.name);
  /** The run as its kind's `GET` shows it, with the account settled to now first. */
  const seeded = async (c: Context<AppEnv>, make: (acct: Account) => RunRecord) => {
    const acct = accountOf(deps, c.req.param('account_id')!);
    const now = deps.clocks.now(acct);
    await settleSliced(deps, acct, now);
    const record = deps.store.tx(() => make(acct));
    const kind = deps.kinds.byName[record.kind]!;
    const state = deriveState(record.state, now, kind.stepNoun);
    return { record, body: toRunBody(kind, { ...record, state }, baseUrl(c)) };
  };

  for (const registered of deps.kinds.list) {
    const { kind, seed } = registered;
    if (!seed) continue;
    app.openapi(kindSeedRoute(kind.collection, seed), async (c) => {
      const input = c.req.valid('json');
      const { record, body } = await seeded(c, (acct) => seedKind(deps, acct, registered, input));
      return c.json(seed.view ? seed.view(record) : body, 201);
    });
  }

  app.openapi(seedRunRoute(runSeedInput(kindNames), names), async (c) => {
    const input = c.req.valid('json') as Parameters<typeof seedRun>[2];
    const { body } = await seeded(c, (acct) => seedRun(deps, acct, input));
    return c.json(body, 201);
  });
}
