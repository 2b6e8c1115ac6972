/**
 * The evaluation kind's own rules (API document sections 2.3 and 2.4; DESIGN.md section 4
 * "Failure codes", "Tokens", "Result", "Archive"): where each failure code strikes, the scorecard,
 * the token estimate and the archive's contents. The shared run behaviour is the engine test's
 * (test/engine/).
 */
import { expect, test } from 'vitest';
import { expectError } from '../../../test/helpers.js';
import {
  at,
  canonical,
  DEFAULT_END,
  DEFAULT_ESTIMATE,
  DEFAULT_PHASE_STARTS,
  extractArchive,
  freshAccount,
  HEX64,
  type PHASES,
  type Runtime,
  runtime,
  SPEC,
  sha256,
} from '../../../test/runtime/support.js';
import { evaluations } from './index.js';

/** An emulator serving this kind only, as the kind's own tests need no other. */
const ownKind = () => runtime({ kinds: [evaluations] });

type Transition = { at: string; resource: string; from: string; to: string; phase: string };

/** When each phase of the default timeline runs, in seconds after creation: [start, end). */
const WINDOWS: Record<(typeof PHASES)[number], [number, number]> = {
  materializing: [0.5, 1],
  planning: [1, 1.5],
  fetching: [1.5, 2],
  running: [2, 4.5],
  verifying: [4.5, 4.8],
  packaging: [4.8, 5],
};

const seconds = (timestamp: string) => (Date.parse(timestamp) - Date.parse(at(0))) / 1000;

/** A run following `outcomes`, created at the account's now. */
const planned = (rt: Runtime, outcomes: unknown[], options: Record<string, unknown> = {}) =>
  rt.create({ spec: SPEC, options: { ...options, emulator: { outcomes } } });

/** Advances well past the end of a default attempt and answers the run's terminal transition. */
async function settleRun(rt: Runtime, id: string): Promise<Transition> {
  const { transitions } = await rt.advance(60);
  const last = transitions.filter((t: Transition) => t.resource === id).at(-1);
  expect(last).toEqual({
    at: expect.any(String),
    resource: id,
    from: expect.any(String),
    to: expect.stringMatching(/^(succeeded|failed|canceled)$/),
    phase: expect.any(String),
  });
  return last;
}

/** What an `episodes/NNNN.json` file holds, as far as these tests read it. */
type EpisodeFile = { index: number; success: boolean; evaluators: Record<string, boolean> };

const EVALUATED = { ...SPEC, evaluators: ['collision', 'success_rate'] };

/** A succeeded default run with its body and served archive. */
async function succeeded(rt: Runtime = ownKind(), spec: Record<string, unknown> = EVALUATED) {
  const { id } = await rt.create({ spec });
  await rt.advance(DEFAULT_END);
  const run = await rt.get(id);
  expect(run.status).toBe('succeeded');
  const archive = await rt.archive(id);
  expect(archive.status).toBe(200);
  return { rt, id, run, archive };
}

/** Every page of `/v1/sim_runs/{id}/files`. */
async function listFiles(rt: Runtime, id: string) {
  const res = await rt.call('GET', `/v1/sim_runs/${id}/files?limit=1000`);
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
  return res.json.data as { path: string; bytes: number; sha256: string; object: string }[];
}

const episodePaths = (n: number) =>
  Array.from({ length: n }, (_, i) => `episodes/${String(i + 1).padStart(4, '0')}.json`);

test('spec_invalid fails in materializing with error.param, not resumable: resume answers 409 not_resumable', async () => {
  const rt = ownKind();
  const { id } = await planned(rt, [
    { fail: 'spec_invalid', param: 'evaluators[0]', message: 'Unknown evaluator.' },
    { succeed: {} },
  ]);
  const end = await settleRun(rt, id);
  expect(end).toMatchObject({ from: 'processing', to: 'failed', phase: 'materializing' });
  const t = seconds(end.at);
  expect(t).toBeGreaterThanOrEqual(WINDOWS.materializing[0]);
  expect(t).toBeLessThan(WINDOWS.materializing[1]);

  const run = await rt.get(id);
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'materializing',
    episodes: { done: 0, total: 10 },
    result: null,
    download: null,
    started_at: at(0.5),
    completed_at: end.at,
    error: {
      code: 'spec_invalid',
      message: 'Unknown evaluator.',
      resumable: false,
      param: 'evaluators[0]',
    },
  });
  expect(run.progress).toBeLessThan(1);

  const resume = await rt.call('POST', `/v1/evaluations/${id}/resume`);
  expectError(resume, 409, 'not_resumable');
  expect(await rt.get(id)).toEqual(run);
});

test('spec_invalid without a param still names the spec field concerned', async () => {
  const rt = ownKind();
  const { id } = await planned(rt, [{ fail: 'spec_invalid' }]);
  await settleRun(rt, id);
  const { error } = await rt.get(id);
  expect(error).toMatchObject({ code: 'spec_invalid', resumable: false });
  expect(error.param).toEqual(expect.stringMatching(/\S/));
});

test('policy_failed fails in running after after_episodes, with error.details.location', async () => {
  const rt = ownKind();
  const { id } = await planned(rt, [{ fail: 'policy_failed', after_episodes: 3 }]);
  const end = await settleRun(rt, id);
  expect(end).toMatchObject({ from: 'processing', to: 'failed', phase: 'running' });
  // Three 0.25 s episodes done, the fourth not finished.
  expect(seconds(end.at)).toBeGreaterThanOrEqual(DEFAULT_PHASE_STARTS.running + 0.75);
  expect(seconds(end.at)).toBeLessThan(DEFAULT_PHASE_STARTS.running + 1);

  const run = await rt.get(id);
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'running',
    episodes: { done: 3, total: 10 },
    result: null,
    download: null,
    completed_at: end.at,
    error: { code: 'policy_failed', message: expect.any(String), resumable: true },
  });
  // DESIGN.md section 4: `details.location` names the episode that failed, the fourth.
  expect(run.error.details.location).toMatch(/\b0*4\b/);
  const episodeLines = (await rt.logs(id)).filter((l) => / episode \d+\/10 /.test(l));
  expect(episodeLines).toHaveLength(3);
});

test('verification_failed fails in verifying with result.verified false and no archive', async () => {
  const rt = ownKind();
  const { id } = await planned(rt, [{ fail: 'verification_failed' }]);
  const end = await settleRun(rt, id);
  expect(end).toMatchObject({ from: 'processing', to: 'failed', phase: 'verifying' });
  expect(seconds(end.at)).toBeGreaterThanOrEqual(WINDOWS.verifying[0]);
  expect(seconds(end.at)).toBeLessThan(WINDOWS.verifying[1]);

  const run = await rt.get(id);
  expect(run).toMatchObject({
    status: 'failed',
    phase: 'verifying',
    episodes: { done: 10, total: 10 },
    download: null,
    error: { code: 'verification_failed', resumable: true },
    result: {
      verified: false,
      manifest_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      metrics: [expect.objectContaining({ id: 'success_rate', n: 10 })],
    },
  });
  expectError(await rt.call('GET', `/v1/evaluations/${id}/archive`), 409, 'run_not_ready');
  expectError(await rt.call('GET', `/v1/sim_runs/${id}/files`), 409, 'run_not_ready');
});

test("a succeed entry's success_rate shapes the scorecard", async () => {
  const rt = ownKind();
  const none = await planned(rt, [{ succeed: { success_rate: 0 } }]);
  const all = await planned(rt, [{ succeed: { success_rate: 1 } }]);
  await rt.advance(60);
  const a = (await rt.get(none.id)).result;
  const b = (await rt.get(all.id)).result;
  expect(a.metrics[0]).toMatchObject({ id: 'success_rate', value: 0, n: 10 });
  expect(a.metrics[0].interval[0]).toBe(0);
  expect(b.metrics[0]).toMatchObject({ id: 'success_rate', value: 1, n: 10 });
  expect(b.metrics[0].interval[1]).toBe(1);
  // Same spec, same manifest; different outputs.
  expect(a.manifest_hash).toBe(b.manifest_hash);
  expect(a.run_hash).not.toBe(b.run_hash);
});

test('the token estimate, 10 + 5 per episode, is charged at create and taken from the balance', async () => {
  const rt = await freshAccount(ownKind(), { token_balance: 1000 });
  expect(await rt.balance()).toBe(1000);
  const small = await rt.create({ spec: SPEC, options: { episodes: 4 } });
  expect(small.tokens).toEqual({ charged: 30, refunded: 0 });
  expect(await rt.balance()).toBe(970);
  const dflt = await rt.create();
  expect(dflt.tokens).toEqual({ charged: DEFAULT_ESTIMATE, refunded: 0 });
  expect(await rt.balance()).toBe(910);

  // A run that succeeds consumed its estimate: nothing comes back.
  await rt.advance(60);
  expect((await rt.get(small.id)).tokens).toEqual({ charged: 30, refunded: 0 });
  expect((await rt.get(dflt.id)).tokens).toEqual({ charged: DEFAULT_ESTIMATE, refunded: 0 });
  expect(await rt.balance()).toBe(910);
});

test('the estimate decides 402 at the boundary: 59 tokens cover 9 episodes, not 10; 60 cover 10', async () => {
  const short = await freshAccount(ownKind(), { token_balance: 59 });
  expectError(
    await short.call('POST', '/v1/evaluations', { spec: SPEC }),
    402,
    'insufficient_tokens',
  );
  const nine = await short.create({ spec: SPEC, options: { episodes: 9 } });
  expect(nine.tokens).toEqual({ charged: 55, refunded: 0 });
  expect(await short.balance()).toBe(4);

  const exact = await freshAccount(ownKind(), { token_balance: 60 });
  await exact.create();
  expect(await exact.balance()).toBe(0);
  expectError(
    await exact.call('POST', '/v1/evaluations', { spec: SPEC }),
    402,
    'insufficient_tokens',
  );
});

test("an evaluation's archive holds its episodes, its SDK log, the manifest and the scorecard", async () => {
  const { rt, id } = await succeeded();
  const listing = await listFiles(rt, id);

  expect(listing.map((f) => f.path)).toEqual([
    ...episodePaths(10),
    'logs/sdk.log',
    'manifest.json',
    'scorecard.json',
  ]);
});

test('manifest_hash and run_hash are the digests of the manifest and outputs in the archive', async () => {
  const { id, run, archive } = await succeeded();
  const files = extractArchive(archive.bytes);
  const read = (path: string) => JSON.parse(files.get(`${id}/${path}`)!.toString('utf8'));

  const manifest = read('manifest.json');
  expect(manifest).toEqual({
    spec: EVALUATED,
    files: [{ path: SPEC.path, sha256: expect.stringMatching(HEX64) }],
    versions: expect.any(Object),
    manifest_hash: run.result.manifest_hash,
    run_id: run.result.run_id,
  });
  // DESIGN.md section 4: sha256 of the canonical JSON of {spec, files, versions}.
  const { spec, files: manifestFiles, versions } = manifest;
  expect(sha256(canonical({ spec, files: manifestFiles, versions }))).toBe(
    run.result.manifest_hash,
  );

  // ...and run_hash of the canonical outputs: the episodes and the metrics.
  const episodes = episodePaths(10).map(read);
  expect(sha256(canonical({ episodes, metrics: run.result.metrics }))).toBe(run.result.run_hash);
});

test('scorecard.json repeats the result, and its metrics count the episode files', async () => {
  const { id, run, archive } = await succeeded();
  const files = extractArchive(archive.bytes);
  const read = (path: string) => JSON.parse(files.get(`${id}/${path}`)!.toString('utf8'));
  const { verified, run_id, run_hash, determinism_verified, metrics } = run.result;
  expect(read('scorecard.json')).toEqual({
    verified,
    run_id,
    run_hash,
    determinism_verified,
    metrics,
  });

  const episodes = episodePaths(10).map(read);
  expect(episodes.map((e) => e.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(metrics.map((m: { id: string }) => m.id)).toEqual(['success_rate', 'collision']);
  const count = (ok: (e: EpisodeFile) => boolean) => episodes.filter(ok).length / episodes.length;
  expect(metrics[0]).toMatchObject({ n: 10, value: count((e) => e.success) });
  expect(metrics[1]).toMatchObject({ n: 10, value: count((e) => e.evaluators.collision === true) });
});
