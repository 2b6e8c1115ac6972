/**
 * `--snapshot FILE` (`EMULATOR_SNAPSHOT`): the CLI started from a downloaded snapshot answers the
 * same requests byte for byte as the emulator that saved it, with the file's seed; a file of
 * another version, or a `--seed` other than the file's, exits 2 saying why.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startCli } from '../../../test/cli-process.js';
import { testEmulator } from '../../../test/helpers.js';
import { buildWorld, call, type Requester, script } from './snapshot-world.test-support.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-cli-'));
const file = join(dir, 'base.snapshot.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const emu = testEmulator({ scenario: 'every-kind', webhooks: false, seed: '42' });
let ids: { evaluation: string };
beforeAll(async () => {
  ids = await buildWorld(emu.app.request);
  await call(emu.app.request, 'POST', '/_control/snapshots', { name: 'base' });
  writeFileSync(file, await (await emu.app.request('/_control/snapshots/base/download')).text());
});
afterAll(() => emu.emulator.close());

/** Runs `src/main.ts` with `args`; answers once its banner is out to the scenario line, or it ended. */
function start(args: string[], env: Record<string, string> = {}) {
  return startCli(args, { env, ready: /listening on (http:\S+)[\s\S]*\n {2}scenario .*\n/ });
}

test('the CLI started from a downloaded file answers as the emulator that saved it', async () => {
  const started = await start(['--snapshot', file, '--port', '0', '--no-webhooks']);
  const { base, out } = started;
  if (!base) throw new Error(`exited ${started.code}: ${out}`);
  expect(out).toContain('seed 42');
  expect(out).toContain('every-kind, then snapshot base');
  // Both answer at the child's origin, so the links in bodies agree.
  const local: Requester = (path, init) => emu.app.request(`${base}${path}`, init);
  const remote: Requester = (path, init) => fetch(`${base}${path}`, init);
  await call(local, 'POST', '/_control/snapshots/base/restore');
  const expected = await script(local, ids);
  expect(await script(remote, ids)).toEqual(expected);
  const listed = await call(remote, 'GET', '/_control/snapshots');
  expect(listed.data.map((s: { name: string }) => s.name)).toEqual(['base']);
});

test('a file of another version (EMULATOR_SNAPSHOT) exits 2 naming the file and both versions', async () => {
  const other = join(dir, 'old.snapshot.json');
  const data = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(other, JSON.stringify({ ...data, emulator_version: '0.0.1' }));
  const exited = await start(['--port', '0'], { EMULATOR_SNAPSHOT: other });
  expect(exited.code, exited.out).toBe(2);
  expect(exited.out).toContain(`svc-emulator: cannot start: ${other}: This snapshot was saved by`);
  expect(exited.out).toContain('svc-emulator 0.0.1 (schema version 102)');
});

test("a --seed other than the file's exits 2, saying which seed to use", async () => {
  const exited = await start(['--snapshot', file, '--seed', '7', '--port', '0']);
  expect(exited.code, exited.out).toBe(2);
  expect(exited.out).toContain("saved with seed '42' and this emulator runs with seed '7'");
});

test('a --snapshot that is not a regular file, or is over 128 MiB, exits 2 unread', async () => {
  const zero = await start(['--snapshot', '/dev/zero', '--port', '0']);
  expect(zero.code, zero.out).toBe(2);
  expect(zero.out).toContain(
    'cannot start: /dev/zero: it is a character device, not a regular file; only regular files (or links to them) are read',
  );
  const huge = join(dir, 'huge.snapshot.json');
  writeFileSync(huge, '');
  truncateSync(huge, 200 * 1024 * 1024);
  const big = await start(['--snapshot', huge, '--port', '0']);
  expect(big.code, big.out).toBe(2);
  expect(big.out).toContain(
    `${huge}: it is 209,715,200 bytes; a snapshot file is at most 128 MiB (134,217,728 bytes)`,
  );
});
