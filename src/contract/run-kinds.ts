/**
 * Where each run kind lives (DESIGN.md section 7 table): its `object` name, id prefix, path,
 * scope and tag. The contract's shared shapes (event types, operations, usage, scenario files)
 * are built from this list; each kind's behaviour is its folder under `src/kinds/`.
 */
export interface RunKindAddress {
  /** The `object` of its bodies and the first part of its event types: `augmentation`. */
  name: string;
  /** Its id prefix, without the `_`: `aug`. */
  prefix: string;
  /** Older prefixes its ids may carry, accepted everywhere (`srun` for evaluations). */
  legacyPrefixes?: readonly string[];
  /** The path segment under `/v1`: `augmentations`. */
  collection: string;
  /** The scope resource: `<scope>:read` and `<scope>:write`. */
  scope: string;
  /** An account feature the kind needs (`twins`). */
  feature?: string;
  /** Where its logs and files are served, if not under `collection` (`sim_runs`, section 4.4). */
  logsAndFilesUnder?: string;
  /** Its area in the API document's section 1 table (the OpenAPI tag). */
  tag: string;
}

export const RUN_KIND_ADDRESSES = {
  augmentation: {
    name: 'augmentation',
    prefix: 'aug',
    collection: 'augmentations',
    scope: 'augmentations',
    tag: 'Augmentations',
  },
  training_run: {
    name: 'training_run',
    prefix: 'train',
    collection: 'training_runs',
    scope: 'training_runs',
    tag: 'Training runs',
  },
  twin: {
    name: 'twin',
    prefix: 'twin',
    collection: 'twins',
    scope: 'twins',
    feature: 'twins',
    tag: 'Twins',
  },
  rl_run: { name: 'rl_run', prefix: 'rl', collection: 'rl_runs', scope: 'rl_runs', tag: 'RL runs' },
  evaluation: {
    name: 'evaluation',
    prefix: 'eval',
    legacyPrefixes: ['srun'],
    collection: 'evaluations',
    scope: 'evaluations',
    logsAndFilesUnder: 'sim_runs',
    tag: 'Evaluations',
  },
  scenario_run: {
    name: 'scenario_run',
    prefix: 'scnrun',
    collection: 'scenario_runs',
    scope: 'scenario_runs',
    tag: 'Scenario runs',
  },
} as const satisfies Record<string, RunKindAddress>;

export type RunKindName = keyof typeof RUN_KIND_ADDRESSES;
export const RUN_KIND_NAMES = Object.keys(RUN_KIND_ADDRESSES) as RunKindName[];
