/**
 * Types of the control API's bodies, derived from the zod schemas the server validates with
 * (src/control/), so the client cannot drift from the routes.
 */
import type { z } from '@hono/zod-openapi';
import type * as routes from '../control/routes.js';
import type * as schemas from '../control/schemas.js';

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
export type TwinInput = z.input<typeof schemas.TwinInput>;
export type SeededTwin = Answer<typeof routes.seedTwinRoute, 201>;
export type WebhookEndpointInput = z.input<typeof schemas.WebhookEndpointInput>;
export type WebhookEndpoint = Answer<typeof routes.seedWebhookEndpointRoute, 201>;
export type UserAssetInput = z.input<typeof schemas.UserAssetInput>;
export type UserAsset = Answer<typeof routes.seedEnvironmentRoute, 201>;

// Fault rules and the request journal (DESIGN.md section 5). Their routes are written on another
// branch; these shapes are the contract fixed there. Derive them from the schemas once merged.

export interface FaultMatch {
  method?: string;
  route?: string;
  operation?: string;
  account?: string;
  key?: string;
}
export type FaultResponse =
  | { status: number; code?: string; message?: string; retry_after?: number }
  | { delay_ms: number }
  | { drop: true };
export interface FaultInput {
  match: FaultMatch;
  respond: FaultResponse;
  /** How many matching requests the rule applies to (unlimited when absent). */
  times?: number;
  /** How many matching requests pass untouched before it applies. */
  skip?: number;
  /** The chance, 0 to 1, that a matching request is hit (drawn from the seed). */
  probability?: number;
}
export interface FaultRule {
  id: string;
  object: 'fault_rule';
  match: FaultMatch;
  respond: FaultResponse;
  times: number | null;
  skip: number;
  probability: number;
  hits: number;
  remaining: number | null;
}
export interface RequestFilter {
  method?: string;
  route?: string;
  status?: number;
  code?: string;
  account?: string;
  since?: string;
  limit?: number;
}
/** One request of the journal; its fields are those the journal's routes answer. */
export type JournalEntry = Record<string, unknown>;
export interface List<T> {
  object: 'list';
  data: T[];
}
export interface Deleted {
  deleted: number;
}
