/**
 * A typed client that reads one `result` field of every run kind, as a user's SDK test would:
 * openapi-fetch over the types openapi-typescript generates from the served documents.
 * `result-types.test.ts` copies it beside the generated `product.ts` and `control.ts`, compiles it
 * with strict tsc (a free-form result types its fields `unknown`, which is no `number`: the build
 * fails) and runs it against an emulator. No casts and no `!`: nulls are checked as users must.
 * Excluded from the repository's own typecheck, which runs before anything is generated.
 */
import createClient from 'openapi-fetch';
import type { paths as ControlPaths } from './control.js';
import type { paths } from './product.js';

const DATASET = 'ds_01KA0000000000000000PANDA1';
const POLICY = 'pol_01KA0000000000000000PANDA1';

/** One field of one kind's result, as read: the run, the field's dotted path and its value. */
export interface ResultRead {
  id: string;
  field: string;
  value: number | boolean;
}

/** Throws what the emulator answered when a call did not succeed. */
function ok<T>(answer: { data?: T; error?: unknown }, what: string): T {
  if (answer.data === undefined) throw new Error(`${what}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

/** Starts one run of each kind on a fresh account, lets them succeed, and reads their results. */
export async function readResults(baseUrl: string) {
  const control = createClient<ControlPaths>({ baseUrl: `${baseUrl}/_control` });
  const made = ok(
    await control.POST('/accounts', { body: { features: ['twins'], clock: { mode: 'manual' } } }),
    'createAccount',
  );
  const secret = made.key.secret;
  if (secret === undefined) throw new Error('createAccount answered no secret');
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${secret}` } });

  const aug = ok(
    await api.POST('/v1/augmentations', {
      body: { dataset: DATASET, config: { episode_count: 2 } },
    }),
    'createAugmentation',
  );
  const training = ok(
    await api.POST('/v1/training_runs', { body: { policy: POLICY, dataset: DATASET } }),
    'createTrainingRun',
  );
  const twin = ok(
    await api.POST('/v1/twins', { body: { dataset: DATASET, episode: 0 } }),
    'createTwin',
  );
  const rl = ok(
    await api.POST('/v1/rl_runs', { body: { robot: 'franka_panda', task: 'pick_place' } }),
    'createRlRun',
  );
  const evaluation = ok(
    await api.POST('/v1/evaluations', {
      body: { spec: { path: 'specs/pick_place.yaml', name: 'pick_place' } },
    }),
    'createEvaluation',
  );
  const scenarioRun = ok(
    await api.POST('/v1/scenario_runs', {
      body: { policy: POLICY, scenarios: ['scn_builtin_pick_place'] },
    }),
    'createScenarioRun',
  );
  ok(
    await control.POST('/accounts/{account_id}/clock/advance', {
      params: { path: { account_id: made.account.id } },
      body: { seconds: 3600 },
    }),
    'advanceClock',
  );

  const path = (run_id: string) => ({ params: { path: { run_id } } });
  const a = ok(await api.GET('/v1/augmentations/{run_id}', path(aug.id)), 'getAugmentation');
  const t = ok(await api.GET('/v1/training_runs/{run_id}', path(training.id)), 'getTrainingRun');
  const tw = ok(
    await api.GET('/v1/twins/{twin_id}', { params: { path: { twin_id: twin.id } } }),
    'getTwin',
  );
  const r = ok(await api.GET('/v1/rl_runs/{run_id}', path(rl.id)), 'getRlRun');
  const e = ok(await api.GET('/v1/evaluations/{run_id}', path(evaluation.id)), 'getEvaluation');
  const s = ok(await api.GET('/v1/scenario_runs/{run_id}', path(scenarioRun.id)), 'getScenarioRun');
  if (!a.result || !t.result || !tw.result || !r.result || !e.result || !s.result)
    throw new Error('a succeeded run without its result');

  // Each read is typed by the generated schema: a free-form result would not compile here.
  const totalFrames: number = a.result.total_frames;
  const finalLoss: number = t.result.metrics.final_loss;
  const sceneParts: number = tw.result.scene.parts;
  const passed: boolean = r.result.verdict.passed;
  const verified: boolean = e.result.verified;
  const successRate: number = s.result.success_rate;
  const reads: Record<string, ResultRead> = {
    augmentation: { id: a.id, field: 'total_frames', value: totalFrames },
    training_run: { id: t.id, field: 'metrics.final_loss', value: finalLoss },
    twin: { id: tw.id, field: 'scene.parts', value: sceneParts },
    rl_run: { id: r.id, field: 'verdict.passed', value: passed },
    evaluation: { id: e.id, field: 'verified', value: verified },
    scenario_run: { id: s.id, field: 'success_rate', value: successRate },
  };
  return { secret, reads };
}
