/**
 * Issue 9: a `kill -9` under write load with `--db` loses no acknowledged write. The emulator
 * runs as a child process on a file; concurrent creates run for a bounded time; the process is
 * killed with SIGKILL; a restart on the same file must hold every create that answered 201.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, expect, test } from 'vitest';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };
const dir = mkdtempSync(join(tmpdir(), 'kill-under-load-'));
const db = join(dir, 'world.db');
const children = new Set<ChildProcess>();
afterAll(() => {
  // A failed assertion leaves the last child running: end it by its own handle.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `src/main.ts` on `db` and a free loopback port; answers its base URL once listening. */
function start(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--db', db, '--port', '0', '--clock', 'manual'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Creates evaluations from `workers` loops for `ms` (at most 500 each); answers the acknowledged ids. */
async function load(base: string, secret: string, ms: number, workers = 6): Promise<string[]> {
  const acknowledged: string[] = [];
  const end = performance.now() + ms;
  const worker = async () => {
    for (let i = 0; i < 500 && performance.now() < end; i++) {
      const res = await fetch(`${base}/v1/evaluations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ spec: SPEC }),
      }).catch(() => null);
      if (res?.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
      else await res?.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return acknowledged;
}

test('every create acknowledged before a SIGKILL is there after a restart', async () => {
  let { child, base } = await start();
  const account = (await (
    await fetch(`${base}/_control/accounts`, {
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
    // The kill lands while creates are in flight: load runs on, the kill comes part way.
    const running = load(base, secret, 1500);
    await new Promise((resolve) => setTimeout(resolve, 800));
    await kill(child);
    acknowledged.push(...(await running));
    ({ child, base } = await start());
    for (const id of acknowledged) {
      const res = await fetch(`${base}/v1/evaluations/${id}`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.status, id).toBe(200);
      await res.body?.cancel();
    }
  }
  expect(acknowledged.length).toBeGreaterThan(0);
  await kill(child);
}, 120_000);
