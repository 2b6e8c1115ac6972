/** Types of the control API's bodies, from the zod schemas the server validates with: no drift. */
import type { z } from '@hono/zod-openapi';
import type * as accounts from '../../areas/accounts/control.js';
import type * as clock from '../../areas/accounts/control-clock.js';
import type * as accountInputs from '../../areas/accounts/inputs.js';
import type * as clientReport from '../../areas/client-report/contract.js';
import type * as webhookEvents from '../../areas/events/control.js';
import type * as diagnostics from '../../areas/faults/control-faults.js';
import type * as sweeps from '../../areas/faults/control-sweeps.js';
import type * as journal from '../../areas/requests/control-journal.js';
import type * as assetSeeding from '../../areas/scenarios/control-seeding.js';
import type * as assetInputs from '../../areas/scenarios/inputs.js';
import type { ScenarioFile } from '../../areas/scenarios/scenario-file.js';
import type * as snapshots from '../../areas/snapshots/control-snapshots.js';
import type * as webhookChaos from '../../areas/webhooks/control-chaos.js';
import type * as deliveries from '../../areas/webhooks/control-deliveries.js';
import type * as webhookSeeding from '../../areas/webhooks/control-seeding.js';
import type * as webhookInputs from '../../areas/webhooks/inputs.js';
import type * as seedInputs from '../../engine/contract/seed-input.js';
import type * as runs from '../../engine/routes/control-runs.js';
import type * as seeding from '../../engine/routes/control-seeding.js';
import type { REGISTERED_KINDS } from '../../kinds/index.js';
import type * as scenarios from '../../world/control-scenarios.js';
import type * as world from '../../world/control-world.js';
import type * as coverage from '../coverage/control-coverage.js';
import type * as listings from '../inspector/listings.js';

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

export type Health = Answer<typeof world.healthRoute, 200>;
export type ResetInput = Body<typeof world.resetRoute>;
export type ResetResult = Answer<typeof world.resetRoute, 200>;
export type ScenarioList = Answer<typeof scenarios.listScenariosRoute, 200>;
export type LoadScenarioInput =
  | { name: string }
  | { scenario: Omit<ScenarioFile, 'accounts'> & { accounts?: ScenarioFile['accounts'] } };
export type LoadScenarioResult = Answer<ReturnType<typeof scenarios.loadScenarioRoute>, 200>;
/** `POST /_control/snapshots`: `{name}`, or `{name, account}` for one account. */
export type SnapshotOptions = { account?: string };
/** A saved snapshot: its scope, when it was saved, its row counts and file size. */
export type Snapshot = Answer<typeof snapshots.saveSnapshotRoute, 201>;
export type SnapshotList = Answer<typeof snapshots.listSnapshotsRoute, 200>;
/** A snapshot file, as `downloadSnapshot` answers it and `loadSnapshot` takes it. */
export type SnapshotFile = Answer<typeof snapshots.downloadSnapshotRoute, 200>;
export type AccountInput = z.input<typeof accountInputs.AccountInput>;
export type CreatedAccount = Answer<typeof accounts.createAccountRoute, 201>;
export type Account = Answer<typeof accounts.getAccountRoute, 200>;
export type KeyInput = accountInputs.KeyInput;
export type Key = Answer<ReturnType<typeof accounts.createKeyRoute>, 201>;
export type Clock = Answer<typeof clock.getClockRoute, 200>;
export type SetClockInput = Body<typeof clock.setClockRoute>;
export type AdvanceClockInput = { seconds: number } | { to: string };
export type AdvancedClock = Answer<typeof clock.advanceClockRoute, 200>;
export type Transition = AdvancedClock['transitions'][number];
/** A run of any kind to seed: `kind`, the kind's create body and the seed fields. */
export type RunInput = { kind: string; [field: string]: unknown } & Partial<{
  [K in keyof typeof seedInputs.RunSeedFields]: z.input<(typeof seedInputs.RunSeedFields)[K]>;
}>;
/** A seeded run as its kind's `GET /v1/<kind>/{id}` shows it. */
export type Run = Answer<ReturnType<typeof seeding.seedRunRoute>, 201>;
export type WebhookEndpointInput = z.input<typeof webhookInputs.WebhookEndpointInput>;
export type WebhookEndpoint = Answer<typeof webhookSeeding.seedWebhookEndpointRoute, 201>;
export type UserAssetInput = z.input<typeof assetInputs.UserAssetInput>;
export type UserAsset = Answer<typeof assetSeeding.seedEnvironmentRoute, 201>;

/** The seeding routes of the kinds that seed in their own terms (`RegisteredKind.seed`). */
type KindSeed = Extract<(typeof REGISTERED_KINDS)[number], { seed: unknown }>['seed'];
/** The harness methods' names: each kind seed's operation (`seedEvaluation`, ...). */
export type KindSeedOperation = KindSeed['operationId'];
type SeedOf<Op extends KindSeedOperation> = Extract<KindSeed, { operationId: Op }>;
/** The body a kind's own seeding takes, e.g. `SeedInput<'seedEvaluation'>`. */
export type SeedInput<Op extends KindSeedOperation> = z.input<SeedOf<Op>['input']>;
/** What a kind's own seeding answers, e.g. `Seeded<'seedEvaluation'>`. */
export type Seeded<Op extends KindSeedOperation> = z.output<SeedOf<Op>['response']>;
/** One method per kind seed, bound to an account or not (`A`: the leading account id). */
export type KindSeeders<A extends unknown[]> = {
  [Op in KindSeedOperation]: object extends SeedInput<Op>
    ? (...args: [...A, body?: SeedInput<Op>]) => Promise<Seeded<Op>>
    : (...args: [...A, body: SeedInput<Op>]) => Promise<Seeded<Op>>;
};

// Fault rules and the request journal (DESIGN.md section 5).
export type FaultInput = Body<typeof diagnostics.createFaultRoute>;
export type FaultRule = Answer<typeof diagnostics.createFaultRoute, 201>;
export type FaultMatch = FaultRule['match'];
export type FaultResponse = FaultRule['respond'];
/** `GET /_control/client_report`: each key's findings, with their evidence. */
export type ClientReport = Answer<typeof clientReport.clientReportRoute, 200>;
export type ClientFinding = ClientReport['keys'][number]['findings'][number];
export type SweepInput = Body<typeof sweeps.createSweepRoute>;
/** A fault sweep and its matrix (`GET /_control/sweeps/{id}`). */
export type Sweep = Answer<typeof sweeps.getSweepRoute, 200>;
export type RequestFilter = Partial<
  Record<'method' | 'route' | 'operation' | 'code' | 'account' | 'key' | 'since', string> &
    Record<'status' | 'limit', number> & {
      status_class: '2xx' | '3xx' | '4xx' | '5xx' | 'dropped';
      /** `oldest` first (default) or `newest` first. */
      order: 'oldest' | 'newest';
      /** A request id: the page after it. */
      after: string;
    }
>;
export type JournalList = Answer<typeof journal.listRequestsRoute, 200>;
/** One request of the journal. */
export type JournalEntry = JournalList['data'][number];
/** One request with its request and answer (`detail`, null once no longer kept). */
export type JournalEntryDetail = Answer<typeof journal.getRequestRoute, 200>;
export type WebhookDeliveryFilter = Partial<
  Record<'account' | 'endpoint' | 'event' | 'after', string>
> & {
  status?: 'pending' | 'delivered' | 'failed';
  /** Deliveries per page, 1 to 1000 (default 100). */
  limit?: number;
  /** `oldest` first (default) or `newest` first. */
  order?: 'oldest' | 'newest';
};
export type WebhookDeliveryList = Answer<typeof deliveries.listWebhookDeliveriesRoute, 200>;
/** One webhook delivery and its attempts. */
export type WebhookDelivery = WebhookDeliveryList['data'][number];
/** One webhook delivery with the payload its attempts send. */
export type WebhookDeliveryDetail = Answer<typeof deliveries.getWebhookDeliveryRoute, 200>;
/** `POST /_control/accounts/{id}/events`: a type, and the resource or body it shows. */
export type FireEventInput = Body<typeof webhookEvents.fireEventRoute>;
/** An event as `GET /v1/events/{event_id}` shows it. */
export type Event = Answer<typeof webhookEvents.fireEventRoute, 201>;
export type EnabledWebhookEndpoint = Answer<typeof webhookEvents.enableEndpointRoute, 200>;
/** `PUT /_control/accounts/{id}/webhook_chaos`: each kind a probability (0 to 1) or `true`. */
export type SetWebhookChaosInput = Body<typeof webhookChaos.setWebhookChaosRoute>;
export type WebhookChaosResult = Answer<typeof webhookChaos.setWebhookChaosRoute, 200>;
/** An endpoint's receiver judged by its answers: one finding per rule, with evidence. */
export type ReceiverReport = Answer<typeof webhookChaos.receiverReportRoute, 200>;
/** `GET /_control/coverage`: each product operation's outcomes, and how often each was seen. */
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

// What the world holds, listed (the inspector's reads, docs/inspector.md).
/** A page: `after` an id, at most `limit` (1 to 1000, default 100). */
export interface Page {
  after?: string;
  limit?: number;
}
export type AccountList = Answer<typeof listings.listAccountsRoute, 200>;
export type KeyList = Answer<typeof listings.listKeysRoute, 200>;
export type WebhookEndpointList = Answer<typeof listings.listEndpointsRoute, 200>;
export type KindList = Answer<typeof listings.listKindsRoute, 200>;
/** Runs of one kind, of one status, after a run id, at most `limit` (default 50). */
export type RunFilter = Page & { kind?: string; status?: Run['status'] };
export type RunList = Answer<typeof runs.listRunsRoute, 200>;
/** A run with its timeline on the account's clock, log, files and archive link. */
export type RunDetail = Answer<typeof runs.getRunRoute, 200>;

/** `GET /_control/bundle/mark`: where the recording of a replay bundle starts, and how far it got. */
export interface BundleMark {
  object: 'bundle_mark';
  marked: boolean;
  reason: 'start' | 'reset' | 'mark' | null;
  marked_at: string | null;
  auto: boolean;
  calls: number;
  webhook_attempts: number;
  bytes: number;
  limit_bytes: number;
  world_bytes: number;
  overflow_at: number | null;
}
