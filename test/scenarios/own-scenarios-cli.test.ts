/**
 * The CLI with a team's own scenarios (issue 28): `--scenario <path>` and `--scenarios-dir`
 * (`EMULATOR_SCENARIOS_DIR`) started for real; a bad file exits 2 naming the file and the field.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'own-scenarios-cli-'));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'svc_test_cli_team_key_0000000001';
const yaml = (name: string, accountName: unknown) => `name: ${name}
accounts:
  - id: acct_00000000000000000000000077
    name: ${JSON.stringify(accountName)}
    keys:
      - name: ci
        secret: ${KEY}
        scopes: [usage:read]
`;
writeFileSync(join(dir, 'team.yaml'), yaml('team', 'Team'));
writeFileSync(join(dir, 'bad.yml'), yaml('bad', 7).replace('"7"', '7'));

/** Runs `src/main.ts`; answers its base URL once it listens (it keeps running), or how it exited. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', ...env },
    },
  );
  children.add(child);
  let out = '';
  const read = (chunk: Buffer) => {
    out += chunk.toString();
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  return new Promise<{ base?: string; code?: number | null; out: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      running.set(match[1]!, child);
      resolve({ base: match[1]!, out });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The emulators listening, by base URL. */
const running = new Map<string, ChildProcess>();

/** SIGTERM to the emulator at `base`; resolves once it exited (its --db file closed). */
async function stop(base: string) {
  const child = running.get(base)!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The name of the key the started emulator's scenario gives `KEY`. */
async function keyName(args: string[], env: Record<string, string> = {}) {
  const { base, out } = await start(args, env);
  if (!base) throw new Error(`did not start: ${out}`);
  const res = await fetch(`${base}/v1/keys/me`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { name: string }).name;
}

test('--scenario takes a path to a YAML file', async () => {
  expect(await keyName(['--scenario', join(dir, 'team.yaml')])).toBe('ci');
});

test('EMULATOR_SCENARIOS_DIR adds a folder whose files load by name', async () => {
  expect(await keyName(['--scenario', 'team'], { EMULATOR_SCENARIOS_DIR: dir })).toBe('ci');
});

test('a bad file exits 2, naming the file, the field and what was expected', async () => {
  const exited = await start(['--scenarios-dir', dir, '--scenario', 'bad']);
  expect(exited.code).toBe(2);
  expect(exited.out).toMatch(
    /cannot start: .*bad\.yml \(field accounts\.0\.name\): .*expected string/,
  );
  const missing = await start(['--scenario', join(dir, 'nope.yaml')]);
  expect(missing.code).toBe(2);
  expect(missing.out).toContain('nope.yaml: cannot read');
});

/** A folder with a team file, a link to /dev/zero and a sparse 60 MB file. */
function oddFolder(): string {
  const odd = join(dir, 'odd');
  mkdirSync(odd, { recursive: true });
  writeFileSync(join(odd, 'team.yaml'), yaml('team', 'Team'));
  rmSync(join(odd, 'zero.json'), { force: true });
  symlinkSync('/dev/zero', join(odd, 'zero.json'));
  writeFileSync(join(odd, 'huge.json'), '');
  truncateSync(join(odd, 'huge.json'), 60 * 1024 * 1024);
  return odd;
}

// Two starts of a process: a minute, as a busy machine may need.
test('a folder holding a link to /dev/zero and a 60 MB file: the CLI starts and lists them unread', {
  timeout: 60_000,
}, async () => {
  const odd = oddFolder();
  const db = join(dir, 'odd.db');
  // Started fresh, then again on the world kept in --db, when the banner reads the other files.
  for (let i = 0; i < 2; i++) {
    const { base, out } = await start(['--scenarios-dir', odd, '--clock', 'manual', '--db', db]);
    if (!base) throw new Error(`did not start: ${out}`);
    const listed = (await (await fetch(`${base}/_control/scenarios`)).json()) as {
      data: { name: string; error: string | null }[];
    };
    const errors = Object.fromEntries(listed.data.map((s) => [s.name, s.error]));
    expect(errors.zero).toMatch(/zero\.json: it is a character device, not a regular file/);
    expect(errors.huge).toMatch(
      /huge\.json: it is 62,914,560 bytes; a scenario file is at most 1 MiB/,
    );
    expect(errors.team).toBeNull();
    await stop(base);
  }
});

test('naming the link to /dev/zero or the 60 MB file exits 2, saying why', {
  timeout: 60_000,
}, async () => {
  const odd = oddFolder();
  const zero = await start(['--scenarios-dir', odd, '--scenario', 'zero']);
  expect(zero.code).toBe(2);
  expect(zero.out).toMatch(
    /cannot start: .*zero\.json: it is a character device, not a regular file/,
  );
  const huge = await start(['--scenario', join(odd, 'huge.json')]);
  expect(huge.code).toBe(2);
  expect(huge.out).toMatch(/cannot start: .*huge\.json: it is 62,914,560 bytes/);
});
