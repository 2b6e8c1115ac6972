/**
 * Issue 36: an emulator closed while a settle worker builds ends its pool, and its process exits
 * (settle-workers.test.ts holds the rest of the pool's behaviour). A fresh Node process shows it:
 * the slow project.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, onTestFinished, test } from 'vitest';
import { DEFAULT_ACCOUNT } from '../helpers.js';

const LONG = { spec: { path: 'specs/long.yaml', name: 'long' }, options: { episodes: 2000 } };

test('closing the emulator while a worker builds ends the pool, and the process exits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'settle-close-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'close.mjs');
  const emulator = fileURLToPath(new URL('../../src/tools/emulator.ts', import.meta.url));
  writeFileSync(
    script,
    `import { createEmulator } from ${JSON.stringify(emulator)};
const emu = createEmulator({ seed: '0', clock: 'manual', settleWorkers: { threads: 1 } });
const call = (path, body) => emu.app.request(path, { method: 'POST', body: JSON.stringify(body),
  headers: { authorization: 'Bearer svc_test_emulator_default', 'content-type': 'application/json' } });
await call('/v1/evaluations', ${JSON.stringify(LONG)});
const advance = call('/_control/accounts/${DEFAULT_ACCOUNT}/clock/advance', { seconds: 3600 });
while (emu.deps.engine.settlePool.stats().threads === 0) await new Promise((r) => setTimeout(r, 5));
emu.close();
const answered = await advance;
console.log(JSON.stringify({ status: answered.status, threads: emu.deps.engine.settlePool.stats().threads }));
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  // The advance answered (an error: its store was closed under it); no worker was left.
  expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ status: 500, threads: 0 });
});
