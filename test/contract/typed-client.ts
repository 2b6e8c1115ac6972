/**
 * A small SDK as users write one: openapi-fetch typed by openapi-typescript from the served
 * documents. `codegen.test.ts` generates `./.generated/` (git-ignored), compiles this file with
 * strict tsc, then runs it against a running emulator. Excluded from the repository's own
 * typecheck, which runs before anything is generated.
 */
import { createHash } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths as ControlPaths } from './.generated/control.js';
import type { components, paths } from './.generated/product.js';

type Evaluation = components['schemas']['Evaluation'];
/** A fault's 502 on create is a declared answer (issue 35 item 4): this fails to compile if not. */
type LaunchFailed =
  paths['/v1/evaluations']['post']['responses'][502]['content']['application/json'];
type RunStatus = Evaluation['status'];

export interface Walkthrough {
  created: Evaluation;
  succeeded: Evaluation;
  files: string[];
  archiveSha256: string;
  resumed: Evaluation;
  resumedFinal: Evaluation;
  /** The code of a create faulted with `X-Emulator-Fault: 502`, read through its typed answer. */
  faulted: LaunchFailed['error']['code'] | null;
}

/** Creates, advances, polls, lists, downloads and resumes, with typed requests and answers. */
export async function walkthrough(baseUrl: string): Promise<Walkthrough> {
  const control = createClient<ControlPaths>({ baseUrl: `${baseUrl}/_control` });
  const made = await control.POST('/accounts', {
    body: { name: 'typed client', clock: { mode: 'manual' } },
  });
  if (!made.data) throw new Error(`createAccount: ${JSON.stringify(made.error)}`);
  const account_id = made.data.account.id;
  const secret = made.data.key.secret;
  if (secret === undefined) throw new Error('createAccount answered no secret');

  const api = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${secret}`, 'Service-Version': '2026-10-12' },
  });
  const advance = async (seconds: number) => {
    const { data, error } = await control.POST('/accounts/{account_id}/clock/advance', {
      params: { path: { account_id } },
      body: { seconds },
    });
    if (!data) throw new Error(`advanceClock: ${JSON.stringify(error)}`);
    return data.transitions.length;
  };
  const get = async (run_id: string) => {
    const { data, error } = await api.GET('/v1/evaluations/{run_id}', {
      params: { path: { run_id } },
    });
    if (!data) throw new Error(`getEvaluation: ${error.error.code}`);
    return data;
  };
  const pollUntil = async (run_id: string, done: readonly RunStatus[]) => {
    for (let i = 0; i < 100; i++) {
      const run = await get(run_id);
      if (done.includes(run.status)) return run;
      await advance(5);
    }
    throw new Error(`${run_id} never reached ${done.join(' or ')}`);
  };

  // A faulted create: its 502 answer is typed, as every answer a fault can give.
  const failedLaunch = await api.POST('/v1/evaluations', {
    body: { spec: { path: 'specs/pick_place.yaml', name: 'pick_place' } },
    headers: { 'X-Emulator-Fault': '502' },
  });
  const faulted = failedLaunch.response.status === 502 ? failedLaunch.error?.error.code : null;

  // Create, then advance the clock and poll to succeeded.
  const created = await api.POST('/v1/evaluations', {
    body: { spec: { path: 'specs/pick_place.yaml', name: 'pick_place' }, options: { episodes: 4 } },
  });
  if (!created.data) throw new Error(`createEvaluation: ${created.error.error.code}`);
  const succeeded = await pollUntil(created.data.id, ['succeeded', 'failed', 'canceled']);
  if (succeeded.status !== 'succeeded') throw new Error(`ended ${succeeded.status}`);

  // Every file of the run, a page at a time.
  const files: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api.GET('/v1/sim_runs/{run_id}/files', {
      params: { path: { run_id: succeeded.id }, query: { limit: 2, ...(after ? { after } : {}) } },
    });
    if (!page.data) throw new Error(`listSimRunFiles: ${page.error.error.code}`);
    files.push(...page.data.data.map((f) => f.path));
    if (!page.data.has_more || page.data.next_cursor === null) break;
    after = page.data.next_cursor;
  }

  // The archive, checked against `download.sha256` (no `!`: download is typed `... | null`).
  const download = succeeded.download;
  if (download === null) throw new Error('a succeeded evaluation without download');
  const archive = await api.GET('/v1/evaluations/{run_id}/archive', {
    params: { path: { run_id: succeeded.id } },
    parseAs: 'arrayBuffer',
  });
  if (!archive.data) throw new Error('getEvaluationArchive failed');
  const archiveSha256 = createHash('sha256').update(Buffer.from(archive.data)).digest('hex');
  if (archiveSha256 !== download.sha256) throw new Error('archive sha256 differs from download');

  // A failed run, resumed: back in `queued`, then succeeded on the second attempt.
  const failing = await api.POST('/v1/evaluations', {
    body: {
      spec: { path: 'specs/pick_place.yaml', name: 'pick_place' },
      options: { episodes: 2, emulator: { outcomes: [{ fail: 'policy_failed' }] } },
    },
  });
  if (!failing.data) throw new Error(`createEvaluation: ${failing.error.error.code}`);
  const failed = await pollUntil(failing.data.id, ['failed', 'succeeded', 'canceled']);
  if (failed.status !== 'failed' || failed.error?.resumable !== true) {
    throw new Error(`expected a resumable failure, got ${failed.status}`);
  }
  const resume = await api.POST('/v1/evaluations/{run_id}/resume', {
    params: { path: { run_id: failed.id } },
    headers: { 'Idempotency-Key': `resume-${failed.id}` },
  });
  if (!resume.data) throw new Error(`resumeEvaluation: ${resume.error.error.code}`);
  const resumedFinal = await pollUntil(failed.id, ['succeeded', 'failed', 'canceled']);
  return {
    created: created.data,
    succeeded,
    files,
    archiveSha256,
    resumed: resume.data,
    resumedFinal,
    faulted: faulted ?? null,
  };
}
