import { z } from '@hono/zod-openapi';
import { ClockInstant, ClockModeSchema } from '../../core/clock-inputs.js';
import { OutcomeRule } from '../../engine/contract/outcomes.js';
import { runSeedInput } from '../../engine/contract/seed-input.js';
import { type Kinds, kindRegistry, scopesOf } from '../../engine/kind-registry.js';
import { REGISTERED_KINDS } from '../../kinds/index.js';
import { AccountInput, keyInput } from '../accounts/inputs.js';
import { FaultRuleInput } from '../faults/contract.js';
import { forKinds } from '../for-kinds.js';
import { WebhookEndpointInput } from '../webhooks/inputs.js';
import { UserAssetInput } from './inputs.js';
import { scenarioSizeIssue } from './scenario-size.js';

/** The largest scenario file read (`--scenario`, `--scenarios-dir`): an inline one's body limit. */
export const SCENARIO_FILE_MAX_BYTES = 1024 * 1024;

/** What a scenario file takes from the registered kinds: scopes, names and seeding inputs. */
export interface ScenarioKinds {
  scopes: readonly string[];
  /**
   * Scopes of registered kinds this emulator does not serve (`createEmulator({ kinds })`): a key
   * that lists one loses it, so the shipped scenarios load with any subset of the kinds.
   */
  unservedScopes?: readonly string[];
  kindNames: readonly string[];
  /** A kind's own seeding input, listed under `accounts[].<collection>`. */
  seeds: readonly { collection: string; input: z.ZodObject }[];
}

/**
 * The schema of a named world in `scenarios/<name>.json`, loadable at start and at run time; one
 * that makes more than 2,000 records or 20,000 rows of files and logs is refused before it is
 * parsed (scenario-size.ts).
 * @example parseDataFile(scenarioFileSchema(kinds), json, file)
 */
export function scenarioFileSchema(kinds: ScenarioKinds) {
  const ScenarioAccount = AccountInput.extend({
    keys: z.array(keyInput(kinds.scopes)).optional(),
    /** Runs of any kind, each `{kind, ...}` (`ControlRunInput`). */
    runs: z.array(runSeedInput(kinds.kindNames)).optional(),
    ...Object.fromEntries(kinds.seeds.map((s) => [s.collection, z.array(s.input).optional()])),
    webhook_endpoints: z.array(WebhookEndpointInput).optional(),
    environments: z.array(UserAssetInput).optional(),
    objects: z.array(UserAssetInput).optional(),
  }).strict();
  const scenario = z
    .object({
      name: z.string().min(1),
      description: z.string().optional(),
      clock: z
        .object({ start: ClockInstant.optional(), mode: ClockModeSchema.optional() })
        .strict()
        .optional(),
      accounts: z.array(ScenarioAccount).default([]),
      /** Fault rules installed on load and on every full reset. */
      faults: z.array(FaultRuleInput).optional(),
      outcome_rules: z.array(OutcomeRule).optional(),
    })
    .strict();
  // Counted on the data as given: a scenario past a limit is refused before it is parsed.
  return z
    .preprocess((raw, ctx) => {
      const issue = scenarioSizeIssue(raw);
      if (issue) ctx.addIssue({ code: 'custom', ...issue });
      return kinds.unservedScopes?.length ? withoutScopes(raw, kinds.unservedScopes) : raw;
    }, scenario)
    .openapi('ScenarioFile');
}

type Json = Record<string, unknown>;
const objectOf = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;

/** `raw` with `dropped` taken out of its keys' scopes; what is not a scenario's shape is kept as given. */
function withoutScopes(raw: unknown, dropped: readonly string[]): unknown {
  const scenario = objectOf(raw);
  if (!scenario || !Array.isArray(scenario.accounts)) return raw;
  const keyWithout = (k: unknown) => {
    const key = objectOf(k);
    if (!key || !Array.isArray(key.scopes)) return k;
    return { ...key, scopes: key.scopes.filter((s) => !dropped.includes(s as string)) };
  };
  const accounts = scenario.accounts.map((a) => {
    const account = objectOf(a);
    if (!account || !Array.isArray(account.keys)) return a;
    return { ...account, keys: account.keys.map(keyWithout) };
  });
  return { ...scenario, accounts };
}

/** One account of a scenario; each kind's own seeding inputs are under its collection. */
export type ScenarioAccount = z.infer<typeof AccountInput> & {
  keys?: z.infer<ReturnType<typeof keyInput>>[];
  runs?: { kind: string; [field: string]: unknown }[];
  webhook_endpoints?: z.infer<typeof WebhookEndpointInput>[];
  environments?: z.infer<typeof UserAssetInput>[];
  objects?: z.infer<typeof UserAssetInput>[];
  [collection: string]: unknown;
};

/** A scenario file as parsed. */
export type ScenarioFile = Omit<z.infer<ReturnType<typeof scenarioFileSchema>>, 'accounts'> & {
  accounts: ScenarioAccount[];
};

declare module '../../engine/deps.js' {
  /** The loaded scenario (`deps.scenarios.loaded`) is a whole scenario file. */
  interface LoadedScenario extends ScenarioFile {}
}

/** Every registered kind's scopes: those of a kind not served are dropped from a scenario's keys. */
const REGISTERED_SCOPES = scopesOf(kindRegistry(REGISTERED_KINDS));

function buildScenarioSchema(kinds: Kinds) {
  const scopes = scopesOf(kinds);
  return scenarioFileSchema({
    scopes,
    unservedScopes: REGISTERED_SCOPES.filter((s) => !scopes.includes(s)),
    kindNames: kinds.list.map(({ kind }) => kind.name),
    seeds: kinds.list.flatMap(({ kind, seed }) =>
      seed ? [{ collection: kind.collection, input: seed.input }] : [],
    ),
  });
}

/**
 * The scenario file's schema for these kinds: their scopes, names and seeding inputs (made once
 * for the registered kinds: an emulator reads it at start and in its control routes).
 */
export const scenarioSchema = forKinds(buildScenarioSchema);
