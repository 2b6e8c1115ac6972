/**
 * `svc-emulator verify` (issue 31) against second emulators: one the same as the contract, and
 * ones started with deliberate differences, each of which must appear in the report at the right
 * operation and field. Targets run in this process (startEmulator); the CLI is test/verify/cli.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { writeReport } from '../../src/tools/verify/report.js';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, NO_TWINS_SECRET } from '../helpers.js';
import { sharedContract, tee, verifyAgainst, webhookSecrets } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('an identical target: every operation checked, no difference, 403s with a narrow key', async () => {
  const target = await startEmulator({ webhooks: false });
  try {
    const narrow = await target.control.createKey(DEFAULT_ACCOUNT, {
      name: 'narrow',
      scopes: ['evaluations:read'],
    });
    const { report } = await verifyAgainst(target.baseUrl, { narrowKey: narrow.secret });
    expect(report.differences).toEqual([]);
    const contract = await sharedContract();
    expect(report.operations.map((o) => o.operation)).toEqual(
      contract.operations.map((o) => o.operationId),
    );
    // Every operation got at least one call; the 401 case reached each that needs a key.
    for (const op of report.operations) expect(op.checks.length, op.operation).toBeGreaterThan(0);
    const checks = (name: string) =>
      report.operations.flatMap((o) => o.checks.filter((c) => c.check === name));
    expect(checks('bad key').length).toBe(contract.operations.filter((o) => o.needsKey).length);
    const forbidden = checks('narrow key').filter((c) => c.answer.status === 403);
    expect(forbidden.length).toBeGreaterThan(10);
    expect(
      report.operations.find((o) => o.operation === 'listTwins')!.checks.map((c) => c.check),
    ).toContain('narrow key');
    // Read-only: nothing but GETs, and calls refused before they could act.
    const journal = await target.control.listRequests({ limit: 5000 });
    const acting = journal.data.filter((r) => r.method !== 'GET' && r.status! < 400);
    expect(acting).toEqual([]);
  } finally {
    await target.stop();
  }
});

test('a key whose account lacks a feature: its operations answer 403 feature_not_enabled first, no difference', async () => {
  const target = await startEmulator({ webhooks: false });
  try {
    const { report } = await verifyAgainst(target.baseUrl, { key: NO_TWINS_SECRET });
    expect(report.differences).toEqual([]);
    // The gated checks did get the 403, for unknown ids and bad parameters alike.
    const gated = report.operations
      .filter((o) => o.operation.includes('Twin'))
      .flatMap((o) => o.checks.filter((c) => c.answer.status === 403).map((c) => c.check));
    expect(new Set(gated)).toEqual(new Set(['read', 'unknown id', 'bad parameter', 'paging']));
  } finally {
    await target.stop();
  }
});

test('a key whose account has the feature: a 403 feature_not_enabled is a difference', async () => {
  const target = await startEmulator({ webhooks: false });
  try {
    await target.control.createFault({
      match: { operation: 'getTwin' },
      respond: { status: 403, code: 'feature_not_enabled' },
    });
    const { report } = await verifyAgainst(target.baseUrl);
    expect(report.differences).toContainEqual({
      operation: 'getTwin',
      check: 'unknown id',
      field: 'status',
      expected: '404',
      actual: 403,
    });
  } finally {
    await target.stop();
  }
});

test('--writes against an identical target: no difference, and only what verify made is deleted', async () => {
  const target = await startEmulator({
    clock: 'scaled:100',
    webhooks: false,
    settleWorkers: { threads: 0 },
  });
  const spy = await tee(target.baseUrl);
  try {
    const auth = { authorization: `Bearer ${DEFAULT_SECRET}`, 'content-type': 'application/json' };
    const mine = await fetch(`${target.baseUrl}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: 'https://example.com/mine' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const { report, session } = await verifyAgainst(spy.url, { writes: true });
    expect(report.differences).toEqual([]);
    expect(report.notes).toEqual([]);
    const created = new Set(session.created.map((c) => c.id));
    expect(created.size).toBeGreaterThanOrEqual(10);
    const journal = await target.control.listRequests({ limit: 5000 });
    const deletes = journal.data.filter((r) => r.method === 'DELETE' && r.status === 200);
    expect(deletes.length).toBeGreaterThan(0);
    for (const d of deletes) expect(created.has(d.path.split('/').at(-1)!), d.path).toBe(true);
    const still = await fetch(`${target.baseUrl}/v1/webhook_endpoints/${mine.id}`, {
      headers: auth,
    });
    expect(still.status).toBe(200);
    // No secret the target sent or verify used reaches the report.
    const secrets = webhookSecrets(spy.bodies);
    expect(secrets.length).toBeGreaterThan(0);
    const files = writeReport(join(dir, 'writes'), report, session.secrets);
    for (const file of [files.json, files.markdown]) {
      const text = readFileSync(file, 'utf8');
      for (const secret of [DEFAULT_SECRET, ...secrets]) expect(text).not.toContain(secret);
    }
  } finally {
    await spy.close();
    await target.stop();
  }
});

test('a --strict target: the inferred operations differ in status and in its document', async () => {
  const target = await startEmulator({ strict: true });
  try {
    const { report } = await verifyAgainst(target.baseUrl);
    const of = (operation: string) => report.differences.filter((d) => d.operation === operation);
    expect(of('listEvaluations')).toContainEqual({
      operation: 'listEvaluations',
      check: 'read',
      field: 'status',
      expected: '200',
      actual: 404,
    });
    expect(of('listEvaluations').map((d) => d.check)).toContain(
      "listed in the target's /openapi.json",
    );
    // The documented operations agree.
    for (const documented of [
      'getCurrentKey',
      'getSimRunLogs',
      'createScenario',
      'deleteWebhookEndpoint',
    ])
      expect(of(documented)).toEqual([]);
  } finally {
    await target.stop();
  }
});

test("a fault rule changing one operation's code: that operation and field, nothing else", async () => {
  const target = await startEmulator();
  try {
    await target.control.createFault({
      match: { operation: 'getSimRunLogs' },
      respond: { status: 404, code: 'run_not_ready' },
    });
    const { report } = await verifyAgainst(target.baseUrl);
    expect(new Set(report.differences.map((d) => d.operation))).toEqual(new Set(['getSimRunLogs']));
    expect(report.differences).toContainEqual({
      operation: 'getSimRunLogs',
      check: 'unknown id',
      field: 'error.code',
      expected: 'resource_not_found',
      actual: 'run_not_ready',
    });
  } finally {
    await target.stop();
  }
});

test('a scenario with a lower rate limit: the 429 is reported with its Retry-After, and verify backs off', async () => {
  const target = await startEmulator({ scenario: 'rate-limited' });
  try {
    const { report } = await verifyAgainst(target.baseUrl);
    const limited = report.differences.filter((d) => d.field === 'status' && d.actual === 429);
    expect(limited.length).toBe(3);
    const first = report.operations.flatMap((o) => o.checks).find((c) => c.answer.status === 429)!;
    expect(first.matched).toContain('header Retry-After');
    expect(first.answer.body).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect(report.notes.join(' ')).toMatch(/answered 429 3 times; verify stopped sending/);
    // /openapi.json, the limit's 5 calls, then 3 refused: verify sent nothing after.
    expect(report.requests).toBe(1 + 5 + 3);
  } finally {
    await target.stop();
  }
});

test('--max-requests is the most the target receives', async () => {
  const target = await startEmulator();
  try {
    const { report } = await verifyAgainst(target.baseUrl, { maxRequests: 30 });
    const journal = await target.control.listRequests({ limit: 5000 });
    // The journal holds the product calls: the 30 are those and the target's /openapi.json.
    expect(journal.data.length).toBe(29);
    expect(report.requests).toBe(30);
    const reasons = report.operations.flatMap((o) => o.not_run.map((n) => n.reason));
    expect(reasons).toContain('the request budget (--max-requests) was spent');
  } finally {
    await target.stop();
  }
});

test('--writes on a small budget still cleans up what it made, within the budget', async () => {
  const target = await startEmulator({
    clock: 'scaled:100',
    webhooks: false,
    settleWorkers: { threads: 0 },
  });
  try {
    const { report, session } = await verifyAgainst(target.baseUrl, {
      writes: true,
      maxRequests: 70,
    });
    const journal = await target.control.listRequests({ limit: 5000 });
    expect(journal.data.length).toBeLessThanOrEqual(70);
    expect(session.created.length).toBeGreaterThan(0);
    const auth = { authorization: `Bearer ${DEFAULT_SECRET}` };
    for (const c of session.created) {
      const res = await fetch(`${target.baseUrl}${c.collection}/${c.id}`, { headers: auth });
      const body = (await res.json()) as { status?: string };
      // A deletable one is gone; a run is canceled, canceling, or ended by itself.
      if (res.status === 404) continue;
      expect(
        ['succeeded', 'failed', 'canceled', 'canceling', 'validated', 'rejected'],
        c.id,
      ).toContain(body.status);
    }
    expect(report.notes.join(' ')).not.toMatch(/left on the target/);
  } finally {
    await target.stop();
  }
});
