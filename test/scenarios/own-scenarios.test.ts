/**
 * A team's own scenario files (issue 28): a folder of JSON and YAML files loadable by name, at
 * start and through `POST /_control/scenarios/load`; a bad file refused whole, naming the file,
 * the field and what was expected, the world left as it was.
 */
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { SHIPPED_SCENARIOS } from '../../src/emulator.js';
import { createEmulator } from '../../src/tools/emulator.js';
import { DataFileError } from '../../src/world/load-scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-own-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'svc_test_team_key_000000000000001';
/** A scenario in YAML: one account, one key, one run on the clock. */
const MINE = `name: mine
description: Our team's world
accounts:
  - id: acct_00000000000000000000000042
    name: Team
    keys:
      - id: key_00000000000000000000000042
        name: ci
        secret: ${KEY}
        scopes: [augmentations:write]
    runs:
      - kind: augmentation
        id: aug_00000000000000000000000042
        dataset: ds_01KA0000000000000000PANDA1
        config: { episode_count: 2 }
`;
writeFileSync(join(dir, 'mine.yaml'), MINE);
writeFileSync(join(dir, 'broken.yml'), MINE.replace('name: Team', 'name: [1, 2]'));
writeFileSync(join(dir, 'unparsable.yaml'), 'name: x\n  accounts: [\n');
writeFileSync(
  join(dir, 'unknown-dataset.json'),
  JSON.stringify({
    name: 'unknown-dataset',
    accounts: [
      {
        id: 'acct_00000000000000000000000043',
        name: 'Other',
        runs: [{ kind: 'augmentation', dataset: 'ds_nope', config: { episode_count: 1 } }],
      },
    ],
  }),
);

const dirs = [dir, SHIPPED_SCENARIOS];

async function call(
  emu: ReturnType<typeof createEmulator>,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await emu.app.request(path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(path.startsWith('/v1') ? { authorization: `Bearer ${KEY}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

test('a name from --scenarios-dir loads at start; the folder is listed beside the shipped files', async () => {
  const emu = createEmulator({ scenariosDir: dirs, scenario: 'mine' });
  const run = await call(emu, 'GET', '/v1/augmentations/aug_00000000000000000000000042');
  expect(run.status).toBe(200);
  expect(run.json).toMatchObject({ id: 'aug_00000000000000000000000042', status: 'queued' });
  const listed = (await call(emu, 'GET', '/_control/scenarios')).json;
  expect(listed.loaded).toBe('mine');
  const byName = Object.fromEntries(listed.data.map((s: { name: string }) => [s.name, s]));
  expect(byName.mine).toEqual({ name: 'mine', description: "Our team's world", error: null });
  expect(byName.default.error).toBeNull();
  expect(byName.broken.error).toContain('broken.yml (field accounts.0.name)');
  emu.close();
});

test('a path to a YAML file loads at start', async () => {
  const emu = createEmulator({ scenario: join(dir, 'mine.yaml') });
  expect((await call(emu, 'GET', '/v1/keys/me')).json).toMatchObject({ name: 'ci' });
  emu.close();
});

test('a bad file at start throws naming the file, the field and what was expected', () => {
  const start = (scenario: string) => () => createEmulator({ scenariosDir: dirs, scenario });
  expect(start('broken')).toThrow(DataFileError);
  expect(start('broken')).toThrow(/broken\.yml \(field accounts\.0\.name\): .*expected string/);
  expect(start('unparsable')).toThrow(
    /unparsable\.yaml: not valid YAML: .* at line \d+, column \d+/,
  );
  expect(start('nope')).toThrow(/nope: no scenario of that name in /);
  expect(start(join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read/);
  // Valid as a file, refused while applied: the file and the field at fault, as in the file.
  expect(start('unknown-dataset')).toThrow(DataFileError);
  expect(start('unknown-dataset')).toThrow(
    /unknown-dataset\.json \(field accounts\.0\.runs\.0\.dataset\): No such dataset in the catalog: 'ds_nope'\.$/,
  );
});

test('the control load takes a name of the folder; a bad file answers 400 and changes nothing', async () => {
  const emu = createEmulator({ scenariosDir: dirs });
  const own = await call(emu, 'POST', '/_control/accounts', {});
  const before = (await call(emu, 'GET', `/_control/accounts/${own.json.account.id}`)).status;
  expect(before).toBe(200);
  const broken = await call(emu, 'POST', '/_control/scenarios/load', { name: 'broken' });
  expect(broken.status).toBe(400);
  expect(broken.json.error).toMatchObject({ code: 'parameter_invalid', param: 'accounts.0.name' });
  expect(broken.json.error.message).toMatch(
    /broken\.yml \(field accounts\.0\.name\): .*expected string/,
  );
  // Valid as a file, refused while applied: the world is put back as it stood.
  const unknown = await call(emu, 'POST', '/_control/scenarios/load', { name: 'unknown-dataset' });
  expect(unknown.status).toBe(400);
  expect(unknown.json.error).toMatchObject({ param: 'accounts.0.runs.0.dataset' });
  expect(unknown.json.error.message).toMatch(
    /unknown-dataset\.json \(field accounts\.0\.runs\.0\.dataset\): No such dataset in the catalog/,
  );
  expect((await call(emu, 'GET', `/_control/accounts/${own.json.account.id}`)).status).toBe(200);
  expect((await call(emu, 'GET', '/_control/scenarios')).json.loaded).toBe('default');
  expect((await call(emu, 'GET', '/_control/snapshots')).json.data).toEqual([]);
  const reset = await call(emu, 'POST', '/_control/reset', { scenario: 'unknown-dataset' });
  expect(reset.status).toBe(400);
  expect((await call(emu, 'GET', `/_control/accounts/${own.json.account.id}`)).status).toBe(200);
  const missing = await call(emu, 'POST', '/_control/scenarios/load', { name: 'nope' });
  expect(missing.status).toBe(404);
  const path = await call(emu, 'POST', '/_control/scenarios/load', { name: '../etc/passwd' });
  expect(path.status).toBe(400);
  expect(path.json.error.param).toBe('name');

  const loaded = await call(emu, 'POST', '/_control/scenarios/load', { name: 'mine' });
  expect(loaded).toEqual({ status: 200, json: { scenario: 'mine' } });
  expect((await call(emu, 'GET', `/_control/accounts/${own.json.account.id}`)).status).toBe(404);
  expect((await call(emu, 'GET', '/v1/keys/me')).status).toBe(200);
  emu.close();
});

test("a file of the user's folder wins over a shipped one of the same name", async () => {
  const other = mkdtempSync(join(tmpdir(), 'svc-own-default-'));
  writeFileSync(join(other, 'default.yaml'), MINE.replace('name: mine', 'name: default'));
  const emu = createEmulator({ scenariosDir: [other, SHIPPED_SCENARIOS] });
  expect((await call(emu, 'GET', '/v1/keys/me')).json).toMatchObject({ name: 'ci' });
  emu.close();
  rmSync(other, { recursive: true, force: true });
});

test('a link to /dev/zero and a 60 MB file are listed with why, unread, and refused by name', async () => {
  const odd = mkdtempSync(join(tmpdir(), 'svc-odd-scenarios-'));
  symlinkSync('/dev/zero', join(odd, 'zero.json'));
  // Sparse: 60 MB as `stat` sees it, nothing written. Read whole it would be 60 MB of NUL bytes.
  writeFileSync(join(odd, 'huge.json'), '');
  truncateSync(join(odd, 'huge.json'), 60 * 1024 * 1024);
  const emu = createEmulator({ scenariosDir: [odd, SHIPPED_SCENARIOS] });
  const listed = (await call(emu, 'GET', '/_control/scenarios')).json.data;
  const byName = Object.fromEntries(listed.map((s: { name: string }) => [s.name, s]));
  expect(byName.zero.error).toBe(
    `${join(odd, 'zero.json')}: it is a character device, not a regular file; only regular files (or links to them) are read`,
  );
  expect(byName.huge.error).toBe(
    `${join(odd, 'huge.json')}: it is 62,914,560 bytes; a scenario file is at most 1 MiB (1,048,576 bytes)`,
  );
  expect(byName.default).toMatchObject({ error: null, description: expect.any(String) });
  for (const name of ['zero', 'huge']) {
    const res = await call(emu, 'POST', '/_control/scenarios/load', { name });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    expect(res.json.error.message).toBe(byName[name].error);
  }
  expect(() => createEmulator({ scenariosDir: [odd], scenario: 'zero' })).toThrow(
    /zero\.json: it is a character device, not a regular file/,
  );
  emu.close();
  rmSync(odd, { recursive: true, force: true });
});

test('the listing reads a file again once it changed', async () => {
  const own = mkdtempSync(join(tmpdir(), 'svc-changing-scenarios-'));
  const write = (description: string) =>
    writeFileSync(join(own, 'moving.json'), JSON.stringify({ name: 'moving', description }));
  write('first');
  const emu = createEmulator({ scenariosDir: [own, SHIPPED_SCENARIOS] });
  const described = async () =>
    (await call(emu, 'GET', '/_control/scenarios')).json.data.find(
      (s: { name: string }) => s.name === 'moving',
    );
  expect(await described()).toEqual({ name: 'moving', description: 'first', error: null });
  expect(await described()).toEqual({ name: 'moving', description: 'first', error: null });
  write('the second one');
  expect(await described()).toEqual({ name: 'moving', description: 'the second one', error: null });
  writeFileSync(join(own, 'moving.json'), '{"name": ');
  expect((await described()).error).toMatch(/moving\.json: not valid JSON/);
  emu.close();
  rmSync(own, { recursive: true, force: true });
});
