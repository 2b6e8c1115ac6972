import { type Catalog, defaultEnvironment } from '../../core/catalog.js';
import { invalidParam, MESSAGES } from '../../core/errors.js';
import type { CreateScenarioBody, Scenario } from './contract.js';
import type { UserAssetKind, UserAssetRecord } from './records.js';

export type ResolvedScenario = Omit<Scenario, 'id' | 'object' | 'created_at' | 'builtin'>;

/** A user asset (`env_`/`obj_`) of the caller's account that has passed validation. */
function checkUserAsset(
  id: string,
  kind: UserAssetKind,
  param: string,
  lookup: (id: string) => UserAssetRecord | undefined,
): void {
  const asset = lookup(id);
  if (!asset || asset.kind !== kind) throw invalidParam(param, MESSAGES.notFound(kind, id));
  if (asset.status !== 'validated')
    throw invalidParam(param, MESSAGES.assetNotValidated(kind, id, asset.status));
}

type Robot = Catalog['robots'][number];
type Task = Catalog['tasks'][number];

/** The embodiment asked for, if both robot and task take it; else section 4.3's default. */
function resolveEmbodiment(asked: string | undefined, robot: Robot, task: Task): string {
  if (asked !== undefined) {
    if (!robot.embodiments.includes(asked))
      throw invalidParam('embodiment', MESSAGES.noEmbodiment(robot.id, asked));
    if (!task.embodiments.includes(asked))
      throw invalidParam('embodiment', MESSAGES.taskRejectsEmbodiment(task.id, asked));
    return asked;
  }
  // Section 4.3: "the robot's first embodiment that the task accepts".
  const embodiment = robot.embodiments.find((e) => task.embodiments.includes(e));
  if (!embodiment) throw invalidParam('task', MESSAGES.noSharedEmbodiment(task.id, robot.id));
  return embodiment;
}

/** The environment asked for (a catalog one or the account's validated `env_`), or the default. */
function resolveEnvironment(
  asked: string | undefined,
  catalog: Catalog,
  lookupAsset: (id: string) => UserAssetRecord | undefined,
): string {
  const environment = asked ?? defaultEnvironment(catalog);
  if (environment.startsWith('env_'))
    checkUserAsset(environment, 'environment', 'environment', lookupAsset);
  else if (!catalog.environments.some((e) => e.id === environment))
    throw invalidParam('environment', MESSAGES.catalogUnknown('environment', environment));
  return environment;
}

/** The scenario's objects: the explicit ones, checked, else those of its object set. */
function resolveObjects(
  body: CreateScenarioBody,
  catalog: Catalog,
  lookupAsset: (id: string) => UserAssetRecord | undefined,
): string[] {
  let setObjects: string[] = [];
  if (body.object_set !== undefined) {
    const set = catalog.object_sets.find((s) => s.id === body.object_set);
    if (!set)
      throw invalidParam('object_set', MESSAGES.catalogUnknown('object set', body.object_set));
    setObjects = set.objects;
  }
  body.objects?.forEach((name, i) => {
    if (name.startsWith('obj_')) checkUserAsset(name, 'object', `objects.${i}`, lookupAsset);
    else if (!catalog.assets.includes(name))
      throw invalidParam(`objects.${i}`, MESSAGES.catalogUnknown('simulator asset', name));
  });
  // Section 4.3: explicit objects override the object set.
  return body.objects ?? setObjects;
}

/**
 * Resolves a scenario body against the catalog and the account's own assets, applying the
 * defaults of API document section 4.3. Throws `parameter_invalid` naming the field at fault.
 * @example resolveScenario({ robot: 'franka_panda', task: 'push' }, catalog, () => undefined)
 */
export function resolveScenario(
  body: CreateScenarioBody,
  catalog: Catalog,
  lookupAsset: (id: string) => UserAssetRecord | undefined,
): ResolvedScenario {
  const robot = catalog.robots.find((r) => r.id === body.robot);
  if (!robot) throw invalidParam('robot', MESSAGES.catalogUnknown('robot', body.robot));
  const task = catalog.tasks.find((t) => t.id === body.task);
  if (!task) throw invalidParam('task', MESSAGES.catalogUnknown('task', body.task));
  const embodiment = resolveEmbodiment(body.embodiment, robot, task);
  const environment = resolveEnvironment(body.environment, catalog, lookupAsset);
  const objects = resolveObjects(body, catalog, lookupAsset);
  return {
    robot: robot.id,
    task: task.id,
    name: body.name ?? null,
    description: body.description ?? null,
    embodiment,
    environment,
    object_set: body.object_set ?? null,
    objects,
    env_args: body.env_args ?? {},
    variation_axes: body.variation_axes ?? [],
    default_max_steps: body.default_max_steps ?? task.default_max_steps,
    est_episode_s: body.est_episode_s ?? task.est_episode_s,
    tags: body.tags ?? [],
  };
}
