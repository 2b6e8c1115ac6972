import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

/**
 * The package as users get it: `npm pack` (its `prepare` builds dist/, as `npm ci` does in a
 * clone), installed from the tarball into an empty project, then run through its `bin` (directly
 * and with `npx`), imported and required by name, and compiled against by a strict TypeScript
 * project; and the clone's own `npx svc-emulator`.
 *
 * The install skips install scripts: better-sqlite3 would otherwise compile SQLite again (about
 * 70 s). Its addon is copied from this project's install instead: the same pinned version, built
 * for the Node.js that runs this test. Dependencies come from npm's cache (`--prefer-offline`),
 * which this project's own `npm ci` has just filled.
 */
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'svc-emulator-pack-'));
const app = join(work, 'app');
let packedPaths: string[] = [];
/** The mode of each packed file, by path. */
let packedModes = new Map<string, number>();
let server: ChildProcess | undefined;

/** npm without the npm_* variables of the `npm test` that runs us. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });

/** `npx svc-emulator ...args` in `cwd`, with an npm cache of its own: no npx entry yet. */
const npx = (args: string[], cwd: string, cache: string) =>
  run('npx', ['--offline', ...args], { cwd, env: { ...env, npm_config_cache: join(work, cache) } });

// About 15 s on an idle machine, mostly `tsc` in prepare.
beforeAll(async () => {
  const { stdout } = await npm(['pack', '--json', '--pack-destination', work], ROOT);
  type Packed = { filename: string; files: { path: string; mode: number }[] };
  const [packed] = JSON.parse(stdout) as [Packed];
  packedPaths = packed.files.map((f) => f.path);
  packedModes = new Map(packed.files.map((f) => [f.path, f.mode]));
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    '{"name": "consumer", "private": true, "type": "module"}',
  );
  // A TypeScript user has @types/node: the same version as ours, from npm's cache.
  const typesNode = `@types/node@${PKG.devDependencies['@types/node']}`;
  const tarball = join(work, packed.filename);
  await npm(['install', '--ignore-scripts', '--prefer-offline', tarball, typesNode], app);
  const addon = join('node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(join(app, addon), { recursive: true });
  copyFileSync(join(ROOT, addon, 'better_sqlite3.node'), join(app, addon, 'better_sqlite3.node'));
});

afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

/** Starts the installed `svc-emulator` on a free port; resolves with the URL its banner prints. */
function startBin(): Promise<string> {
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

/** Runs a file of the consumer project with node. */
function node(file: string, source: string) {
  writeFileSync(join(app, file), source);
  return run(process.execPath, [file], { cwd: app, env });
}

test('the tarball holds dist/ (ES modules, CommonJS, Swagger UI, the inspector), scenarios, fixtures, docs', () => {
  expect(packedPaths).toEqual(
    expect.arrayContaining([
      'dist/main.js',
      'dist/settle-worker.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/index.cjs',
      'dist/testing.cjs',
      'dist/tools/harness/index.js',
      'dist/tools/harness/index.d.ts',
      'dist/swagger-ui/swagger-ui-bundle.js',
      'dist/swagger-ui/swagger-ui.css',
      'dist/swagger-ui/LICENSE',
      'dist/tools/testcontainers/index.js',
      'dist/tools/inspector/ui/index.html',
      'dist/tools/inspector/ui/app.js',
      'dist/tools/inspector/ui/inspector.css',
      'scenarios/default.json',
      'fixtures/catalog.json',
      'README.md',
      'docs/api.md',
      'docs/inspector.md',
      'docs/images/ui-requests.png',
      'package.json',
    ]),
  );
  expect(
    packedPaths.filter(
      (p) => !/^(dist|scenarios|fixtures|docs)\/|^(README\.md|package\.json)$/.test(p),
    ),
  ).toEqual([]);
  expect(existsSync(join(app, 'node_modules', 'svc-emulator', 'src'))).toBe(false);
});

test('the build leaves the bin a program: dist/main.js has its #! line and is packed executable', async () => {
  // Checked before any npm link touched it: npm makes a bin executable when it links one, but not
  // again after a rebuild of a clone it linked before (issue 35: "Permission denied").
  expect(packedModes.get('dist/main.js')).toBe(0o755);
  const main = join(ROOT, 'dist', 'main.js');
  expect(readFileSync(main, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  expect((await run(main, ['--version'], { cwd: ROOT, env })).stdout).toBe(`${PKG.version}\n`);
});

test('from a fresh clone, `npx svc-emulator --version` prints the version', async () => {
  // No dist/ and no npx entry for the clone (an npm cache of its own): npm links the clone, runs
  // its `prepare` (the build `npm ci` runs), links the bin and runs it. Before issue 35 this
  // printed `sh: 1: svc-emulator: not found`.
  await npm(['run', 'clean'], ROOT);
  const version = await npx(['svc-emulator', '--version'], ROOT, 'npm-cache');
  expect(version.stdout).toBe(`${PKG.version}\n`);
});

test('the installed bin prints its version, directly and with npx, then serves /v1, /docs without swagger-ui-dist, and the inspector', async () => {
  const bin = join(app, 'node_modules', '.bin', 'svc-emulator');
  for (const flag of ['--version', '-v']) {
    const version = await run(bin, [flag], { cwd: app, env });
    expect(version.stdout).toBe(`${PKG.version}\n`);
  }
  const viaNpx = await npx(['svc-emulator', '--version'], app, 'npm-cache-app');
  expect(viaNpx.stdout).toBe(`${PKG.version}\n`);
  expect(existsSync(join(app, 'node_modules', 'swagger-ui-dist'))).toBe(false);
  const baseUrl = await startBin();
  const health = await fetch(`${baseUrl}/_control/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', version: PKG.version });
  const me = await fetch(`${baseUrl}/v1/keys/me`, {
    headers: { authorization: 'Bearer svc_test_emulator_default' },
  });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ id: 'key_00000000000000000000000001' });
  const root = await fetch(`${baseUrl}/`);
  expect(root.status).toBe(200);
  expect(await root.text()).toContain('href="/_control/ui"');
  for (const path of ['/_control/ui', '/_control/ui/app.js', '/_control/ui/inspector.css']) {
    const page = await fetch(`${baseUrl}${path}`);
    expect(page.status, path).toBe(200);
  }
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
    const asset = await fetch(`${baseUrl}/docs/assets/swagger-ui-dist/${file}`);
    expect(asset.status).toBe(200);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  }
});

test('`svc-emulator/testing` imports by name from an ES module', async () => {
  const harness = await node(
    'harness.mjs',
    `import { startEmulator } from 'svc-emulator/testing';
    const emu = await startEmulator();
    const { key } = await emu.control.newAccount();
    console.log(key.secret.startsWith('svc_'), (await emu.control.health()).status);
    await emu.stop();`,
  );
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

test('require() of both entries works from CommonJS and starts an emulator', async () => {
  const required = await node(
    'harness.cjs',
    `const { createEmulator, packageVersion } = require('svc-emulator');
    const { startEmulator, ControlError } = require('svc-emulator/testing');
    (async () => {
      const inProcess = createEmulator();
      const health = await inProcess.app.request('/_control/health');
      inProcess.close();
      const emu = await startEmulator();
      const account = await emu.control.newAccount();
      const me = await fetch(account.apiUrl + '/keys/me', { headers: account.headers });
      const missing = await emu.control.getAccount('acct_missing').catch((e) => e);
      console.log(packageVersion(), health.status, me.status, missing instanceof ControlError);
      await emu.stop();
    })();`,
  );
  expect(required.stdout.trim()).toBe(`${PKG.version} 200 200 true`);
});

/** A long run settled and its archive checked, in `emulator` (created by the caller's entry). */
const LONG_RUN = `
  const call = (m, p, b) => emulator.app.request(p, { method: m, body: b && JSON.stringify(b),
    headers: { authorization: 'Bearer svc_test_emulator_default', 'content-type': 'application/json' } });
  const run = await (await call('POST', '/v1/evaluations',
    { spec: { path: 's.yaml', name: 's' }, options: { episodes: 500 } })).json();
  await call('POST', '/_control/accounts/acct_00000000000000000000000001/clock/advance', { seconds: 3600 });
  const { download } = await (await call('GET', '/v1/evaluations/' + run.id)).json();
  const bytes = Buffer.from(await (await call('GET', '/v1/evaluations/' + run.id + '/archive')).arrayBuffer());
  const same = require('node:crypto').createHash('sha256').update(bytes).digest('hex') === download.sha256;
  console.log(same, JSON.stringify(emulator.deps.engine.settlePool.stats()));
  emulator.close();`;

test('both entries and the bin settle a long run in a worker thread (dist/settle-worker.js)', async () => {
  const done = 'true {"worker":2,"loop":0,"failed":0,"threads":1}';
  const esm = await node(
    'settle.mjs',
    `import { createRequire } from 'node:module';
    import { createEmulator } from 'svc-emulator';
    const require = createRequire(import.meta.url);
    const emulator = createEmulator({ clock: 'manual', settleWorkers: { threads: 1 } });
    ${LONG_RUN}`,
  );
  expect(esm.stdout.trim()).toBe(done);
  const cjs = await node(
    'settle.cjs',
    `const { createEmulator } = require('svc-emulator');
    (async () => {
      const emulator = createEmulator({ clock: 'manual', settleWorkers: { threads: 1 } });
      ${LONG_RUN}
    })();`,
  );
  expect(cjs.stdout.trim()).toBe(done);
  // The bin: a worker that fails to start or dies is named on its stderr.
  const bin = join(app, 'node_modules', '.bin', 'svc-emulator');
  const child = spawn(bin, ['--port', '0', '--clock', 'manual', '--settle-threads', '1'], {
    cwd: app,
    env,
  });
  try {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    const baseUrl = await new Promise<string>((resolveUrl) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk;
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolveUrl(url);
      });
    });
    const call = async (method: string, path: string, body?: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: {
          authorization: 'Bearer svc_test_emulator_default',
          'content-type': 'application/json',
        },
      });
    const body = { spec: { path: 's.yaml', name: 's' }, options: { episodes: 500 } };
    const run = (await (await call('POST', '/v1/evaluations', body)).json()) as { id: string };
    const clock = '/_control/accounts/acct_00000000000000000000000001/clock/advance';
    expect((await call('POST', clock, { seconds: 3600 })).status).toBe(200);
    const { download } = (await (await call('GET', `/v1/evaluations/${run.id}`)).json()) as {
      download: { sha256: string };
    };
    const archive = await call('GET', `/v1/evaluations/${run.id}/archive`);
    const bytes = Buffer.from(await archive.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(download.sha256);
    expect(err).toBe('');
  } finally {
    child.kill('SIGKILL');
  }
});

test('the shipped declarations compile in a consumer under tsc --strict, skipLibCheck false', async () => {
  const use = `
    const options: EmulatorOptions = { seed: '1', cors: ['http://localhost:5173'] };
    const emulator: Emulator = createEmulator(options);
    const health: Response = await emulator.app.request('/_control/health');
    const running: RunningEmulator = await startEmulator({ clock: 'manual' });
    const account: TestAccount = await running.control.newAccount();
    const secret: string = account.key.secret;
    const clock = await account.clock.advance(5);
    const failure: ControlError | undefined = undefined;
    console.log(health.status, secret, clock, failure, emulator.deps.store.db.name);
    await running.stop();`;
  writeFileSync(
    join(app, 'consumer.ts'),
    `import { createEmulator, type Emulator, type EmulatorOptions } from 'svc-emulator';
    import { ControlError, type RunningEmulator, startEmulator, type TestAccount } from 'svc-emulator/testing';
    ${use}`,
  );
  // A CommonJS TypeScript file of the same project (module nodenext, TypeScript 5.8 or later).
  writeFileSync(
    join(app, 'consumer.cts'),
    `import { createEmulator, type Emulator, type EmulatorOptions } from 'svc-emulator';
    import { ControlError, type RunningEmulator, startEmulator, type TestAccount } from 'svc-emulator/testing';
    export async function main(): Promise<void> {${use}}`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        types: ['node'],
      },
      files: ['consumer.ts', 'consumer.cts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(process.execPath, [tsc, '-p', app], { cwd: app, env }).catch(
    (err: { stdout: string }) => err,
  );
  expect(compiled.stdout).toBe('');
});

test('no telemetry install script in the dependency tree: npm ls finds no @scarf/scarf', async () => {
  const listed = await npm(['ls', '--all', '--json', '@scarf/scarf'], app).catch(
    (err: { stdout: string }) => err,
  );
  expect(JSON.parse(listed.stdout).dependencies).toBeUndefined();
  const all = await npm(['ls', '--all', '--json'], app);
  expect(all.stdout).toContain('"svc-emulator"');
  expect(all.stdout).not.toContain('swagger-ui-dist');
});
