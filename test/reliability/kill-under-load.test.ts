/**
 * Issue 9: a `kill -9` under write load with `--db` loses no acknowledged write. The emulator
 * runs as a child process on a file; concurrent creates run until the process is killed with
 * SIGKILL, part way through them; a restart on the same file must hold every create that answered
 * 201.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startCli } from '../cli-process.js';
import { eventually } from '../wait.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };
const dir = mkdtempSync(join(tmpdir(), 'kill-under-load-'));
const db = join(dir, 'world.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `src/main.ts` on `db` and a free loopback port, and waits for it to listen. */
async function start() {
  const cli = await startCli(['--db', db, '--port', '0', '--clock', 'manual']);
  if (!cli.base) throw new Error(`exited ${cli.code}: ${cli.out}`);
  return cli;
}

/**
 * Creates evaluations from `workers` loops until the server stops answering (it was killed);
 * pushes each acknowledged id to `acknowledged` as its 201 arrives.
 */
async function load(base: string, secret: string, acknowledged: string[], workers = 6) {
  const worker = async () => {
    for (;;) {
      const res = await fetch(`${base}/v1/evaluations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ spec: SPEC }),
      }).catch(() => null);
      if (res === null) return;
      const body = await res.json().catch(() => null);
      if (res.status === 201 && body) acknowledged.push((body as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

test('every create acknowledged before a SIGKILL is there after a restart', async () => {
  let cli = await start();
  const account = (await (
    await fetch(`${cli.base}/_control/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'acct_killed',
        token_balance: 1_000_000_000,
        limits: { requests_per_minute: 1_000_000, concurrent_runs: 1_000_000 },
      }),
    })
  ).json()) as { key: { secret: string } };
  const secret = account.key.secret;
  const acknowledged: string[] = [];
  for (let round = 0; round < 3; round++) {
    // The kill lands while creates are in flight: it comes once 20 of this round's are
    // acknowledged, and the loops run on until the server is gone.
    const before = acknowledged.length;
    const running = load(cli.base!, secret, acknowledged);
    await eventually(async () => (acknowledged.length >= before + 20 ? true : undefined), '201s');
    expect(await cli.stop('SIGKILL')).toBeNull();
    await running;
    cli = await start();
    for (const id of acknowledged) {
      const res = await fetch(`${cli.base}/v1/evaluations/${id}`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.status, id).toBe(200);
      await res.body?.cancel();
    }
  }
  expect(acknowledged.length).toBeGreaterThanOrEqual(60);
  await cli.stop('SIGKILL');
});
