/**
 * The command line of issue 31: `svc-emulator verify`, `--proxy URL --record DIR` and
 * `svc-emulator drift`, as processes: their exit statuses (0 agrees, 1 differs, 2 could not run)
 * and the files they write. Targets run in this process.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { runCli as cli, startCli } from '../cli-process.js';
import { DEFAULT_SECRET } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fast = ['--key', DEFAULT_SECRET, '--rps', '1000'];

test('verify exits 0 against an identical target and writes FILE.json and FILE.md', async () => {
  const target = await startEmulator();
  try {
    const report = join(dir, 'same');
    const run = await cli(['verify', '--target', target.baseUrl, ...fast, '--report', report]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/0 differences in 0 checks/);
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8'));
    expect(json.differences).toEqual([]);
    expect(readFileSync(`${report}.md`, 'utf8')).toMatch(/## Differences\n\nNone\./);
  } finally {
    await target.stop();
  }
});

test('verify exits 1 when the target differs, 2 when it cannot run', async () => {
  const target = await startEmulator({ strict: true });
  try {
    const report = join(dir, 'strict.json');
    const run = await cli(['verify', '--target', target.baseUrl, ...fast, '--report', report]);
    expect(run.code).toBe(1);
    expect(existsSync(join(dir, 'strict.md'))).toBe(true);
    const bad = await cli(['verify', '--target', target.baseUrl, ...fast, '--rps', '0']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/Invalid --rps '0'/)]);
    const noKey = await cli(['verify', '--target', target.baseUrl]);
    expect(noKey.code).toBe(2);
    const refused = await cli([
      'verify',
      '--target',
      target.baseUrl,
      '--key',
      'svc_wrong_key_0000',
    ]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/refused --key/)]);
  } finally {
    await target.stop();
  }
  const gone = await cli(['verify', '--target', target.baseUrl, ...fast]);
  expect([gone.code, gone.stderr]).toEqual([2, expect.stringMatching(/cannot reach/)]);
});

test('--proxy --record writes a cassette; drift exits 0 over it, 1 once a difference is planted', async () => {
  const target = await startEmulator();
  const cassette = join(dir, 'cassette');
  try {
    const proxy = await startCli(['--port', '0', '--proxy', target.baseUrl, '--record', cassette]);
    const url = proxy.base;
    expect(url, proxy.out).toBeDefined();
    const auth = { authorization: `Bearer ${DEFAULT_SECRET}` };
    const me = await fetch(`${url}/v1/keys/me`, { headers: auth });
    expect(me.status).toBe(200);
    expect(me.headers.get('x-emulator-violations')).toBeNull();
    expect((await fetch(`${url}/v1/usage`, { headers: auth })).status).toBe(200);
    await proxy.stop();
    const files = readdirSync(cassette).sort();
    expect(files).toEqual(['000001-getCurrentKey.json', '000002-getUsage.json']);

    const report = join(dir, 'drift');
    const same = await cli(['drift', '--cassette', cassette, '--report', report]);
    expect([same.code, same.stderr]).toEqual([0, '']);
    const exchange = JSON.parse(readFileSync(join(cassette, files[0]!), 'utf8'));
    exchange.response.body.scopes = 'evaluations:write';
    writeFileSync(join(cassette, files[0]!), JSON.stringify(exchange));
    const planted = await cli(['drift', '--cassette', cassette, '--report', report]);
    expect(planted.code).toBe(1);
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8'));
    expect(json.differences).toEqual([
      {
        operation: 'getCurrentKey',
        check: 'exchange 1',
        field: 'body.scopes',
        expected: 'string',
        actual: 'array',
      },
    ]);
    // A cassette is one session: a folder that holds one is refused.
    const again = await cli(['--proxy', target.baseUrl, '--record', cassette, '--port', '0']);
    expect([again.code, again.stderr]).toEqual([
      2,
      expect.stringMatching(/already holds a cassette/),
    ]);
    const missing = await cli(['drift', '--cassette', join(dir, 'none')]);
    expect(missing.code).toBe(2);
  } finally {
    await target.stop();
  }
});
