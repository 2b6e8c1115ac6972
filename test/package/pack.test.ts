import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

/**
 * The package as users get it: `npm pack` (its `prepack` builds dist/), installed from the
 * tarball into an empty project, then run through its `bin` and imported by name.
 *
 * The install skips install scripts: better-sqlite3 would otherwise compile SQLite again (about
 * 70 s). Its addon is copied from this project's install instead: the same pinned version, built
 * for the Node.js that runs this test. Dependencies come from npm's cache (`--prefer-offline`),
 * which this project's own `npm ci` has just filled.
 */
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'svc-emulator-pack-'));
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

/** npm without the npm_* variables of the `npm test` that runs us. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });

/** Starts the installed `svc-emulator` on a free port; resolves with the URL its banner prints. */
function startBin(app: string): Promise<string> {
  const bin = join(app, 'node_modules', '.bin', 'svc-emulator');
  const child = spawn(bin, ['--port', '0', '--clock', 'manual'], { cwd: app, env });
  server = child;
  return new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolveUrl(url);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.on('exit', (code) => reject(new Error(`svc-emulator exited with ${code}: ${out}`)));
  });
}

// About 10 s on an idle machine, mostly `tsc` in prepack; generous for a loaded CI machine.
test('the packed tarball installs into an empty project and runs from there', {
  timeout: 120_000,
}, async () => {
  const { stdout } = await npm(['pack', '--json', '--pack-destination', work], ROOT);
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  const paths = packed.files.map((f) => f.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'dist/main.js',
      'dist/index.d.ts',
      'dist/testing/index.js',
      'dist/testing/index.d.ts',
      'dist/testcontainers/index.js',
      'scenarios/default.json',
      'fixtures/catalog.json',
      'README.md',
      'docs/api.md',
      'package.json',
    ]),
  );
  expect(
    paths.filter((p) => !/^(dist|scenarios|fixtures|docs)\/|^(README\.md|package\.json)$/.test(p)),
  ).toEqual([]);

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    '{"name": "consumer", "private": true, "type": "module"}',
  );
  await npm(['install', '--ignore-scripts', '--prefer-offline', join(work, packed.filename)], app);
  const addon = join('node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(join(app, addon), { recursive: true });
  copyFileSync(join(ROOT, addon, 'better_sqlite3.node'), join(app, addon, 'better_sqlite3.node'));
  expect(existsSync(join(app, 'node_modules', 'svc-emulator', 'src'))).toBe(false);

  const baseUrl = await startBin(app);
  const health = await fetch(`${baseUrl}/_control/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', version: '0.1.0' });
  const me = await fetch(`${baseUrl}/v1/keys/me`, {
    headers: { authorization: 'Bearer svc_test_emulator_default' },
  });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ id: 'key_00000000000000000000000001' });
  const docs = await fetch(`${baseUrl}/docs/assets/swagger-ui-dist/swagger-ui-bundle.js`);
  expect(docs.status).toBe(200);

  // `svc-emulator/testing` by name, as a user's test imports it.
  const script = `
    import { startEmulator } from 'svc-emulator/testing';
    const emu = await startEmulator();
    const { key } = await emu.control.newAccount();
    console.log(key.secret.startsWith('svc_'), (await emu.control.health()).status);
    await emu.stop();`;
  const harness = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: app,
    env,
  });
  expect(harness.stdout.trim()).toBe('true ok');

  // testcontainers is an optional peer: not installed, and only its own entry asks for it.
  expect(existsSync(join(app, 'node_modules', 'testcontainers'))).toBe(false);
  const module = await run(
    process.execPath,
    ['--input-type=module', '-e', "await import('svc-emulator/testcontainers')"],
    { cwd: app, env },
  ).catch((err: { stderr: string }) => err);
  expect(module.stderr).toMatch(/Cannot find package 'testcontainers'/);
});
