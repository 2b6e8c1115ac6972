/**
 * The CLI with a team's own scenarios (issue 28): `--scenario <path>` and `--scenarios-dir`
 * (`EMULATOR_SCENARIOS_DIR`) started for real; a bad file exits 2 naming the file and the field,
 * also when only applying it finds the fault (issue 35 item 6).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startCli } from '../cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'own-scenarios-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
// Valid as a file; the catalog has no policy `pol_base`, which only applying it finds.
writeFileSync(
  join(dir, 'applied.yaml'),
  `${yaml('applied', 'Team')}    runs:
      - kind: training_run
        policy: pol_base
        dataset: ds_01KA0000000000000000PANDA1
`,
);
writeFileSync(join(dir, 'manual.yaml'), `${yaml('manual', 'Team')}clock: { mode: manual }\n`);

/** Runs `src/main.ts` on a free port; answers once it listens (it keeps running), or it ended. */
const start = (args: string[], env: Record<string, string> = {}) =>
  startCli(['--port', '0', ...args], { env });

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

test('a valid file the world refuses exits 2, naming the file and the field', async () => {
  const exited = await start(['--scenarios-dir', dir, '--scenario', 'applied']);
  expect(exited.code).toBe(2);
  expect(exited.out).toMatch(
    /cannot start: .*applied\.yaml \(field accounts\.0\.runs\.0\.policy\): No such policy in the catalog: 'pol_base'\./,
  );
});

test("the banner's clock line says the scenario's accounts are manual under a realtime --clock", async () => {
  const { base, out } = await start(['--scenarios-dir', dir, '--scenario', 'manual']);
  expect(base).toBeDefined();
  expect(out).toContain(
    'scenario   manual   seed 0   clock manual (the accounts of the world); realtime for new ones',
  );
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

test('a folder holding a link to /dev/zero and a 60 MB file: the CLI starts and lists them unread', async () => {
  const odd = oddFolder();
  const db = join(dir, 'odd.db');
  // Started fresh, then again on the world kept in --db, when the banner reads the other files.
  for (let i = 0; i < 2; i++) {
    const run = await start(['--scenarios-dir', odd, '--clock', 'manual', '--db', db]);
    const { base, out } = run;
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
    await run.stop();
  }
});

test('naming the link to /dev/zero or the 60 MB file exits 2, saying why', async () => {
  const odd = oddFolder();
  const zero = await start(['--scenarios-dir', odd, '--scenario', 'zero']);
  expect(zero.code, zero.out).toBe(2);
  expect(zero.out).toMatch(
    /cannot start: .*zero\.json: it is a character device, not a regular file/,
  );
  const huge = await start(['--scenario', join(odd, 'huge.json')]);
  expect(huge.code, huge.out).toBe(2);
  expect(huge.out).toMatch(/cannot start: .*huge\.json: it is 62,914,560 bytes/);
});
