/**
 * `GET /_control/coverage` and `--coverage-report` (issue 13 part 4): every outcome each product
 * operation can answer, and how often the traffic seen so far got it, per account or for all.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { markdownPath, writeCoverageReport } from '../../src/tools/coverage/file.js';
import { startEmulator } from '../../src/tools/harness/index.js';
import { startCli } from '../cli-process.js';
import {
  DEFAULT_ACCOUNT,
  DEFAULT_SECRET,
  NO_TWINS_ACCOUNT,
  NO_TWINS_SECRET,
  testEmulator,
} from '../helpers.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
const UNKNOWN = 'eval_00000000000000000000000000';
const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Emu = ReturnType<typeof testEmulator>;
type Report = {
  account: string | null;
  operations: {
    operation: string;
    calls: number;
    outcomes: { status: number; code: string | null; documented: boolean; seen: number }[];
    unlisted: { status: number | null; code: string | null; seen: number }[];
  }[];
  summary: Record<string, number>;
};

/** A 200 and a 404 on get, a faulted 429 and a 409 `not_resumable` on resume (default account). */
async function traffic(emu: Emu): Promise<void> {
  const run = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/evaluations`, { spec: SPEC });
  expect((await emu.api('GET', `/v1/evaluations/${run.id}`)).status).toBe(200);
  expect((await emu.api('GET', `/v1/evaluations/${UNKNOWN}`)).status).toBe(404);
  const faulted = await emu.api('POST', `/v1/evaluations/${run.id}/resume`, {
    headers: { 'x-emulator-fault': '429' },
  });
  expect(faulted.status).toBe(429);
  const queued = await emu.api('POST', `/v1/evaluations/${run.id}/resume`);
  expect([queued.status, queued.json.error.code]).toEqual([409, 'not_resumable']);
}

/** The outcomes seen at least once, as `operation status code xN`. */
const seenOutcomes = (report: Report) =>
  report.operations.flatMap((op) =>
    op.outcomes
      .filter((o) => o.seen > 0)
      .map((o) => `${op.operation} ${o.status} ${o.code} x${o.seen}`),
  );

const operation = (report: Report, id: string) =>
  report.operations.find((o) => o.operation === id)!;

describe('GET /_control/coverage', () => {
  test('marks exactly the outcomes the calls got, with their counts, for all accounts', async () => {
    const emu = testEmulator();
    await traffic(emu);
    expect((await emu.api('GET', '/v1/evaluations', { secret: NO_TWINS_SECRET })).status).toBe(200);
    const report: Report = await emu.control('GET', '/coverage');
    expect(report.account).toBeNull();
    expect(seenOutcomes(report)).toEqual([
      'listEvaluations 200 null x1',
      'getEvaluation 200 null x1',
      'getEvaluation 404 resource_not_found x1',
      'resumeEvaluation 409 not_resumable x1',
      'resumeEvaluation 429 rate_limit_exceeded x1',
    ]);
    expect(operation(report, 'getEvaluation').calls).toBe(2);
    expect(operation(report, 'resumeEvaluation').calls).toBe(2);
    expect(report.summary).toMatchObject({
      exercised: 3,
      seen: 5,
      unlisted: 0,
      calls: 5,
      unmatched_calls: 0,
    });
    expect(report.summary.operations).toBe(report.operations.length);
  });

  test('lists every outcome of an operation, documented and inferred, and what was never seen', async () => {
    const emu = testEmulator();
    await traffic(emu);
    const resume = operation(await emu.control('GET', '/coverage'), 'resumeEvaluation');
    expect(resume).toMatchObject({ method: 'POST', route: '/v1/evaluations/{run_id}/resume' });
    const never = resume.outcomes.filter((o) => o.seen === 0).map((o) => `${o.status} ${o.code}`);
    expect(never).toContain('202 null');
    expect(never).toContain('409 idempotency_key_reused');
    expect(never).toContain('429 capacity_exceeded');
    expect(never).toContain('402 insufficient_tokens');
    // Documented where API document section 4.1 names it; its 409 code and the faults' 503 not.
    const documented = (status: number, code: string) =>
      resume.outcomes.find((o) => o.status === status && o.code === code)?.documented;
    expect(documented(502, 'launch_failed')).toBe(true);
    expect(documented(409, 'idempotency_key_reused')).toBe(true);
    expect(documented(409, 'not_resumable')).toBe(false);
    expect(documented(503, 'api_error')).toBe(false);
    // A GET cannot reuse an Idempotency-Key, and only the twins need the twins feature.
    const archive = operation(await emu.control('GET', '/coverage'), 'getEvaluationArchive');
    expect(archive.outcomes.filter((o) => o.status === 409).map((o) => o.code)).toEqual([
      'run_not_ready',
    ]);
    expect(archive.outcomes.some((o) => o.code === 'feature_not_enabled')).toBe(false);
    const create = operation(await emu.control('GET', '/coverage'), 'createEvaluation');
    expect(create.outcomes.find((o) => o.code === 'idempotency_key_reused')).toMatchObject({
      documented: false,
    });
  });

  test('per account counts only that account; calls without a key only the whole', async () => {
    const emu = testEmulator();
    await traffic(emu);
    expect((await emu.api('GET', '/v1/evaluations', { secret: NO_TWINS_SECRET })).status).toBe(200);
    expect((await emu.api('GET', '/v1/evaluations', { secret: null })).status).toBe(401);
    expect((await emu.api('GET', '/v1/nowhere')).status).toBe(404);
    const mine: Report = await emu.control('GET', `/coverage?account=${DEFAULT_ACCOUNT}`);
    expect(mine.account).toBe(DEFAULT_ACCOUNT);
    expect(seenOutcomes(mine)).toHaveLength(4);
    expect(operation(mine, 'listEvaluations').calls).toBe(0);
    expect(mine.summary.unmatched_calls).toBe(1);
    const theirs: Report = await emu.control('GET', `/coverage?account=${NO_TWINS_ACCOUNT}`);
    expect(seenOutcomes(theirs)).toEqual(['listEvaluations 200 null x1']);
    const all: Report = await emu.control('GET', '/coverage');
    // listEvaluations is an inferred operation: none of its outcomes is the API document's.
    expect(operation(all, 'listEvaluations').outcomes.filter((o) => o.seen > 0)).toEqual([
      { status: 200, code: null, documented: false, seen: 1 },
      { status: 401, code: 'unauthenticated', documented: false, seen: 1 },
    ]);
    const unknown = await emu.app.request('/_control/coverage?account=acct_nobody');
    expect(unknown.status).toBe(404);
  });

  test('a status only a fault gives the operation is listed, inferred, and counted there', async () => {
    const emu = testEmulator();
    for (const fault of ['503', '502', '404']) {
      const res = await emu.api('GET', '/v1/catalog/robots', {
        headers: { 'x-emulator-fault': fault },
      });
      expect(res.status).toBe(Number(fault));
    }
    const robots = operation(await emu.control('GET', '/coverage'), 'listCatalogRobots');
    expect(robots.unlisted).toEqual([]);
    expect(robots.outcomes.filter((o) => o.seen > 0)).toEqual([
      { status: 404, code: 'resource_not_found', documented: false, seen: 1 },
      { status: 502, code: 'launch_failed', documented: false, seen: 1 },
      { status: 503, code: 'api_error', documented: false, seen: 1 },
    ]);
  });

  test('an outcome the operation does not list is shown apart', async () => {
    const emu = testEmulator();
    const res = await emu.api('GET', '/v1/catalog/robots', {
      headers: { 'x-emulator-fault': '503;code=not_resumable' },
    });
    expect(res.status).toBe(503);
    const robots = operation(await emu.control('GET', '/coverage'), 'listCatalogRobots');
    expect(robots.unlisted).toEqual([{ status: 503, code: 'not_resumable', seen: 1 }]);
    expect(robots.calls).toBe(1);
  });

  test('a reset empties it: everything, or one account', async () => {
    const emu = testEmulator();
    await traffic(emu);
    await emu.api('GET', '/v1/evaluations', { secret: NO_TWINS_SECRET });
    await emu.control('POST', '/reset', { account: NO_TWINS_ACCOUNT });
    expect(seenOutcomes(await emu.control('GET', '/coverage'))).toHaveLength(4);
    await emu.control('POST', '/reset', {});
    const after: Report = await emu.control('GET', '/coverage');
    expect(seenOutcomes(after)).toEqual([]);
    expect(after.summary).toMatchObject({ exercised: 0, seen: 0, calls: 0 });
  });

  test('is in the control document and the typed control client', async () => {
    const { baseUrl, control, stop } = await startEmulator();
    try {
      const doc = await control.openapi();
      expect(Object.keys(doc.paths as object)).toContain('/coverage');
      const res = await fetch(`${baseUrl}/v1/keys/me`, {
        headers: { authorization: `Bearer ${DEFAULT_SECRET}` },
      });
      expect(res.status).toBe(200);
      const report = await control.coverage({ account: DEFAULT_ACCOUNT });
      const me = report.operations.find((o) => o.operation === 'getCurrentKey');
      expect(me?.outcomes[0]).toEqual({ status: 200, code: null, documented: true, seen: 1 });
      expect((await control.coverage()).summary.calls).toBe(1);
    } finally {
      await stop();
    }
  });
});

describe('--coverage-report', () => {
  test('writes the report as JSON and a Markdown table per operation, unseen marked', async () => {
    const emu = testEmulator();
    await traffic(emu);
    const file = join(dir, 'coverage.json');
    const out = writeCoverageReport(file, emu.emulator.coverage());
    expect(out).toEqual({ json: file, markdown: join(dir, 'coverage.md') });
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json).toEqual(await emu.control('GET', '/coverage'));
    const md = readFileSync(out.markdown, 'utf8');
    expect(md).toContain(`2 of ${json.summary.operations} operations called`);
    expect(md).toContain('### POST /v1/evaluations/{run_id}/resume (`resumeEvaluation`): 2 calls');
    // The API document leaves resume's 409 code unsaid: `not_resumable` is inferred.
    expect(md).toContain('| 409 `not_resumable` | inferred | 1 |');
    expect(md).toContain('| 429 `capacity_exceeded` | yes | **never** |');
    expect(md).toContain('| 409 `idempotency_key_reused` | yes | **never** |');
    expect(md).toContain('| 503 `api_error` | inferred | **never** |');
    expect(markdownPath('/tmp/report')).toBe('/tmp/report.md');
  });

  test('the CLI writes both files at shutdown', async () => {
    const file = join(dir, 'cli-report');
    const cli = await startCli(['--port', '0', '--coverage-report', file]);
    const res = await fetch(`${cli.base}/v1/keys/me`, {
      headers: { authorization: 'Bearer svc_test_emulator_default' },
    });
    expect(res.status).toBe(200);
    expect(await cli.stop('SIGTERM')).toBe(0);
    expect(cli.out).toContain(`coverage report written to ${file} and ${file}.md`);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const me = report.operations.find(
      (o: { operation: string }) => o.operation === 'getCurrentKey',
    );
    expect(me.calls).toBe(1);
    expect(existsSync(`${file}.md`)).toBe(true);
    expect(readFileSync(`${file}.md`, 'utf8')).toContain('`getCurrentKey`): 1 call');
  });
});
