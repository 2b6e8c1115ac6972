/**
 * The CLI with a team's own scenarios (issue 28): `--scenario <path>` and `--scenarios-dir`
 * (`EMULATOR_SCENARIOS_DIR`) started for real; a bad file exits 2 naming the file and the field.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
