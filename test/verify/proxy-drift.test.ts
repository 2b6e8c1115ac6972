/**
 * The proxy (`--proxy URL --record DIR`) in front of a second emulator, and `drift` over what it
 * recorded (issue 31): violations named in a header, a cassette without secrets, a replay that
 * agrees, and one that finds the differences planted in the cassette.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { CassetteWriter } from '../../src/tools/verify/cassette.js';
import { runDrift } from '../../src/tools/verify/drift.js';
import { createProxyApp } from '../../src/tools/verify/proxy-server.js';
import { DEFAULT_SECRET } from '../helpers.js';
import { filesOf, sharedContract, webhookSecrets } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = { path: 'specs/pick_place.yaml', name: 'pick_place' };
const UNKNOWN = 'eval_00000000000000000000000000';

/** A call through the proxy app, as a client would make it. */
function through(proxy: { fetch(req: Request): Promise<Response> }, secret: string | null) {
  return (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (secret) headers.authorization = `Bearer ${secret}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    return proxy.fetch(new Request(`http://proxy.test${path}`, init));
  };
}

test('an answer the contract does not allow is passed on, with X-Emulator-Violations naming it', async () => {
  const target = await startEmulator();
  try {
    const proxy = await createProxyApp({ target: target.baseUrl });
    const call = through(proxy, DEFAULT_SECRET);
    const fine = await call('GET', '/v1/keys/me');
    expect(fine.status).toBe(200);
    expect(fine.headers.get('x-emulator-violations')).toBeNull();
    await target.control.createFault({
      match: { operation: 'getCurrentKey' },
      respond: { status: 409, code: 'not_cancelable' },
    });
    const odd = await call('GET', '/v1/keys/me');
    expect(odd.status).toBe(409);
    expect(((await odd.json()) as { error: { code: string } }).error.code).toBe('not_cancelable');
    const violations = JSON.parse(odd.headers.get('x-emulator-violations')!);
    expect(violations).toContainEqual({
      field: 'status declared',
      expected: 'one of 200, 400, 401, 429, 500',
      actual: 409,
    });
    // A declared status with a code its response does not list (`x-error-codes`).
    await target.control.createFault({
      match: { operation: 'getEvaluation' },
      respond: { status: 404, code: 'run_not_ready' },
    });
    const unknown = await call('GET', '/v1/evaluations/eval_00000000000000000000000000');
    expect(JSON.parse(unknown.headers.get('x-emulator-violations')!)).toEqual([
      {
        field: 'error.code declared',
        expected: 'one of resource_not_found',
        actual: 'run_not_ready',
      },
    ]);
    // The contract and its docs are the emulator's own; the target is not asked.
    const doc = await proxy.fetch(new Request('http://proxy.test/openapi.json'));
    expect(((await doc.json()) as { paths: object }).paths).toHaveProperty(['/v1/keys/me']);
    proxy.emulator.close();
  } finally {
    await target.stop();
  }
});

test('a --strict target through the proxy: an inferred operation it lacks is a violation', async () => {
  const target = await startEmulator({ strict: true });
  try {
    const proxy = await createProxyApp({ target: target.baseUrl });
    const call = through(proxy, DEFAULT_SECRET);
    const list = await call('GET', '/v1/evaluations');
    expect(list.status).toBe(404);
    expect(JSON.parse(list.headers.get('x-emulator-violations')!)).toContainEqual({
      field: 'status declared',
      expected: 'one of 200, 400, 401, 403, 429, 500',
      actual: 404,
    });
    // A documented operation it serves passes clean.
    expect((await call('GET', '/v1/keys/me')).headers.get('x-emulator-violations')).toBeNull();
    proxy.emulator.close();
  } finally {
    await target.stop();
  }
});

test('the proxy records a cassette without secrets; drift replays it and agrees, then finds what was planted', async () => {
  const target = await startEmulator({ webhooks: false });
  const cassetteDir = join(dir, 'cassette');
  const raw: string[] = [];
  try {
    const proxy = await createProxyApp({
      target: target.baseUrl,
      cassette: new CassetteWriter(cassetteDir),
    });
    const call = through(proxy, DEFAULT_SECRET);
    const keep = async (res: Promise<Response>) => {
      const r = await res;
      const text = await r.text();
      raw.push(text);
      return { status: r.status, json: JSON.parse(text) };
    };
    const run = await keep(call('POST', '/v1/evaluations', { spec: SPEC }));
    expect(run.status).toBe(201);
    expect((await keep(call('GET', `/v1/evaluations/${run.json.id}`))).status).toBe(200);
    expect((await keep(call('GET', '/v1/evaluations?limit=5'))).status).toBe(200);
    const hook = await keep(
      call('POST', '/v1/webhook_endpoints', { url: 'https://example.com/h' }),
    );
    expect(hook.status).toBe(201);
    expect((await keep(call('GET', `/v1/evaluations/${UNKNOWN}`))).status).toBe(404);
    const refused = through(proxy, 'svc_not_a_key_of_this_world_000');
    expect((await keep(refused('GET', '/v1/keys/me'))).status).toBe(401);
    proxy.emulator.close();

    const files = readdirSync(cassetteDir).sort();
    expect(files).toEqual([
      '000001-createEvaluation.json',
      '000002-getEvaluation.json',
      '000003-listEvaluations.json',
      '000004-createWebhookEndpoint.json',
      '000005-getEvaluation.json',
      '000006-getCurrentKey.json',
    ]);
    const secrets = webhookSecrets(raw);
    expect(secrets.length).toBe(1);
    for (const text of filesOf(cassetteDir))
      for (const secret of [DEFAULT_SECRET, 'svc_not_a_key_of_this_world_000', ...secrets])
        expect(text).not.toContain(secret);
    const first = JSON.parse(readFileSync(join(cassetteDir, files[0]!), 'utf8'));
    expect(first.request.headers.authorization).toBe('Bearer ***1');
    const last = JSON.parse(readFileSync(join(cassetteDir, files[5]!), 'utf8'));
    expect(last.request.headers.authorization).toBe('Bearer ***2');

    const options = {
      cassette: cassetteDir,
      seed: '0',
      scenario: 'default',
      strict: false,
      strictVersions: false,
    };
    const agreeing = await runDrift(options, await sharedContract());
    expect(agreeing.differences).toEqual([]);
    expect(agreeing.summary.checks).toBe(6);

    // Planted: the service answered `progress` as a string, and another code for an unknown id.
    type Recorded = { response: { body: { progress?: unknown; error?: { code: string } } } };
    const plant = (file: string, change: (e: Recorded) => void) => {
      const path = join(cassetteDir, file);
      const exchange = JSON.parse(readFileSync(path, 'utf8'));
      change(exchange);
      writeFileSync(path, JSON.stringify(exchange));
    };
    plant(files[0]!, (e) => {
      e.response.body.progress = '0%';
    });
    plant(files[4]!, (e) => {
      e.response.body.error!.code = 'evaluation_not_found';
    });
    const drifted = await runDrift(options, await sharedContract());
    expect(drifted.differences).toEqual([
      {
        operation: 'createEvaluation',
        check: 'exchange 1',
        field: 'body.progress',
        expected: 'string',
        actual: 'number',
      },
      {
        operation: 'getEvaluation',
        check: 'exchange 5',
        field: 'body.error.code',
        expected: 'evaluation_not_found',
        actual: 'resource_not_found',
      },
    ]);
    // A key the replaying world does not hold cannot replay anything.
    await expect(
      runDrift({ ...options, key: 'svc_not_of_this_world_0000' }, await sharedContract()),
    ).rejects.toThrow(/--key is not a key of the scenario's world \(default\)/);
  } finally {
    await target.stop();
  }
});

test('a call faulted through the proxy is recorded with its X-Emulator-Fault and replays the same; another status is one row', async () => {
  const target = await startEmulator({ webhooks: false });
  const cassetteDir = join(dir, 'faulted');
  try {
    const proxy = await createProxyApp({
      target: target.baseUrl,
      cassette: new CassetteWriter(cassetteDir),
    });
    const faulted = await proxy.fetch(
      new Request('http://proxy.test/v1/evaluations', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${DEFAULT_SECRET}`,
          'content-type': 'application/json',
          'x-emulator-fault': '502',
        },
        body: JSON.stringify({ spec: SPEC }),
      }),
    );
    expect(faulted.status).toBe(502);
    proxy.emulator.close();
    const [file] = readdirSync(cassetteDir);
    const path = join(cassetteDir, file!);
    const exchange = JSON.parse(readFileSync(path, 'utf8'));
    expect(exchange.request.headers['x-emulator-fault']).toBe('502');

    const options = {
      cassette: cassetteDir,
      seed: '0',
      scenario: 'default',
      strict: false,
      strictVersions: false,
    };
    expect((await runDrift(options, await sharedContract())).differences).toEqual([]);

    // Without the header the replay creates the run: one row for the one cause, not the fields
    // of an error body against those of an evaluation.
    delete exchange.request.headers['x-emulator-fault'];
    writeFileSync(path, JSON.stringify(exchange));
    expect((await runDrift(options, await sharedContract())).differences).toEqual([
      {
        operation: 'createEvaluation',
        check: 'exchange 1',
        field: 'status',
        expected: '502 launch_failed',
        actual: '201',
      },
    ]);
  } finally {
    await target.stop();
  }
});
