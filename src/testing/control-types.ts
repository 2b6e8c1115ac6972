/**
 * Types of the control API's bodies, derived from the zod schemas the server validates with
 * (src/control/), so the client cannot drift from the routes.
 */
import type { z } from '@hono/zod-openapi';
import type * as schemas from '../contract/control-inputs.js';
import type * as coverage from '../control/coverage.js';
import type * as diagnostics from '../control/diagnostics.js';
import type * as routes from '../control/routes.js';
import type * as deliveries from '../control/webhook-deliveries.js';

type Route = { request?: unknown; responses: Record<number, unknown> };
/** The JSON body a route answers with `status`. */
type Answer<R extends Route, S extends keyof R['responses']> = R['responses'][S] extends {
  content: { 'application/json': { schema: infer T extends z.ZodType } };
}
  ? z.output<T>
  : never;
/** The JSON body a route accepts, as the caller writes it (defaults optional). */
type Body<R extends Route> = R['request'] extends {
  body: { content: { 'application/json': { schema: infer T extends z.ZodType } } };
}
  ? z.input<T>
  : never;

export type Health = Answer<typeof routes.healthRoute, 200>;
export type ResetInput = Body<typeof routes.resetRoute>;
export type ResetResult = Answer<typeof routes.resetRoute, 200>;
export type ScenarioList = Answer<typeof routes.listScenariosRoute, 200>;
export type LoadScenarioInput = Body<typeof routes.loadScenarioRoute>;
export type LoadScenarioResult = Answer<typeof routes.loadScenarioRoute, 200>;
export type AccountInput = z.input<typeof schemas.AccountInput>;
export type CreatedAccount = Answer<typeof routes.createAccountRoute, 201>;
export type Account = Answer<typeof routes.getAccountRoute, 200>;
export type KeyInput = z.input<typeof schemas.KeyInput>;
export type Key = Answer<typeof routes.createKeyRoute, 201>;
export type Clock = Answer<typeof routes.getClockRoute, 200>;
export type SetClockInput = Body<typeof routes.setClockRoute>;
export type AdvanceClockInput = { seconds: number } | { to: string };
export type AdvancedClock = Answer<typeof routes.advanceClockRoute, 200>;
export type Transition = AdvancedClock['transitions'][number];
export type EvaluationInput = z.input<typeof schemas.EvaluationInput>;
export type Evaluation = Answer<typeof routes.seedEvaluationRoute, 201>;
/**
 * A run of any kind to seed: `kind`, the kind's create body (as `POST /v1/<kind>` takes it) and
 * the seed fields of `ControlEvaluationInput` (`status`, `outcomes`, `error`, `result`, ...).
 */
export type RunInput = z.input<typeof schemas.RunSeedInput> &
  Partial<{
    [K in keyof typeof schemas.RunSeedFields]: z.input<(typeof schemas.RunSeedFields)[K]>;
  }>;
/** A seeded run as its kind's `GET /v1/<kind>/{id}` shows it. */
export type Run = Answer<typeof routes.seedRunRoute, 201>;
export type TwinInput = z.input<typeof schemas.TwinInput>;
export type SeededTwin = Answer<typeof routes.seedTwinRoute, 201>;
export type WebhookEndpointInput = z.input<typeof schemas.WebhookEndpointInput>;
export type WebhookEndpoint = Answer<typeof routes.seedWebhookEndpointRoute, 201>;
export type UserAssetInput = z.input<typeof schemas.UserAssetInput>;
export type UserAsset = Answer<typeof routes.seedEnvironmentRoute, 201>;

// Fault rules and the request journal (DESIGN.md section 5).
export type FaultInput = Body<typeof diagnostics.createFaultRoute>;
export type FaultRule = Answer<typeof diagnostics.createFaultRoute, 201>;
export type FaultMatch = FaultRule['match'];
export type FaultResponse = FaultRule['respond'];
export type RequestFilter = Partial<
  Record<'method' | 'route' | 'operation' | 'code' | 'account' | 'key' | 'since', string>
> & {
  status?: number;
  limit?: number;
};
export type JournalList = Answer<typeof diagnostics.listRequestsRoute, 200>;
/** One request of the journal. */
export type JournalEntry = JournalList['data'][number];
export type WebhookDeliveryFilter = Partial<
  Record<'account' | 'endpoint' | 'event' | 'after', string>
> & {
  status?: 'pending' | 'delivered' | 'failed';
  /** Deliveries per page, 1 to 1000 (default 100). */
  limit?: number;
};
export type WebhookDeliveryList = Answer<typeof deliveries.listWebhookDeliveriesRoute, 200>;
/** One webhook delivery and its attempts. */
export type WebhookDelivery = WebhookDeliveryList['data'][number];
/** `GET /_control/coverage`: every outcome of every product operation, and how often it was seen. */
export type Coverage = Answer<typeof coverage.coverageRoute, 200>;
export type CoverageOperation = Coverage['operations'][number];
export type CoverageOutcome = CoverageOperation['outcomes'][number];
export interface List<T> {
  object: 'list';
  data: T[];
}
export interface Deleted {
  deleted: number;
}
