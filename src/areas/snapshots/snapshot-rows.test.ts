/**
 * A snapshot file is checked row by row before anything of it is kept (issue 36): every value as
 * its table's repository reads it, and every row inside the file's scope. A file edited and
 * sealed again (its `sha256` is a plain checksum) answers 400 naming the table, column and row.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../../../test/helpers.js';
import { Database } from '../../core/sqlite/driver.js';

type Emu = ReturnType<typeof testEmulator>;
type File = {
  sha256: string;
  world: {
    tables: Record<string, { columns: string[]; rows: unknown[][] }>;
    state: Record<string, unknown> & { journal: { account_id: string | null }[] };
  };
};

const ctl = (emu: Emu, method: string, path: string, body?: unknown) =>
  emu.api(method, `/_control${path}`, { secret: null, body });
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** `file` with `edit` applied and sealed again, as someone with the file can. */
function resealed(file: File, edit: (f: File) => void): File {
  const copy = structuredClone(file);
  edit(copy);
  copy.sha256 = sha256(JSON.stringify(copy.world)).toString('hex');
  return copy;
}

/** Sets `column` of row `row` of `table`. */
const set = (f: File, table: string, row: number, column: string, value: unknown) => {
  const t = f.world.tables[table]!;
  t.rows[row]![t.columns.indexOf(column)] = value;
};

/** A second account with runs, a log, an endpoint, events and deliveries; its snapshot's file. */
async function accountFile(emu: Emu): Promise<File> {
  const { key } = await emu.control('POST', '/accounts', { id: 'acct_first' });
  const auth = { secret: key.secret };
  await emu.api('POST', '/v1/evaluations', { ...auth, body: { spec: { path: 'a', name: 'b' } } });
  await emu.control('POST', '/accounts/acct_first/webhook_endpoints', {
    url: 'http://127.0.0.1:9/h',
  });
  await emu.control('POST', '/accounts/acct_first/clock/advance', { seconds: 60 });
  const spec = { path: 'a', name: 'logged' };
  await emu.control('POST', '/accounts/acct_first/evaluations', {
    spec,
    status: 'succeeded',
    logs: ['one'],
  });
  await emu.control('POST', '/snapshots', { name: 'first', account: 'acct_first' });
  return (await ctl(emu, 'GET', '/snapshots/first/download')).json;
}

/** Uploads `file`; answers the 400's error after checking it named `snapshot` and kept nothing. */
async function refused(emu: Emu, file: File) {
  const before = (await emu.control('GET', '/snapshots')).data.length;
  const res = await ctl(emu, 'POST', '/snapshots', { name: 'edited', snapshot: file });
  const error = expectError(res, 400, 'parameter_invalid', 'snapshot');
  expect((await emu.control('GET', '/snapshots')).data).toHaveLength(before);
  return error;
}

test("an account's file with a key row of another account is refused, naming the row", async () => {
  const emu = testEmulator({ webhooks: false });
  const file = await accountFile(emu);
  const forged = resealed(file, (f) => {
    const keys = f.world.tables.api_keys!;
    const row = structuredClone(keys.rows[0]!);
    keys.rows.push(row);
    set(f, 'api_keys', 1, 'id', 'key_forged');
    set(f, 'api_keys', 1, 'account_id', DEFAULT_ACCOUNT);
    set(f, 'api_keys', 1, 'secret_sha256', {
      base64: sha256('svc_test_forged_0001').toString('base64'),
    });
  });
  const error = await refused(emu, forged);
  expect(error.message).toBe(
    `The snapshot file holds a row outside its scope: table api_keys, column account_id, row 1: '${DEFAULT_ACCOUNT}' is not the snapshot's account 'acct_first'.`,
  );
  expect(error.details).toEqual({ table: 'api_keys', column: 'account_id', row: 1 });
  expect((await emu.api('GET', '/v1/keys/me', { secret: 'svc_test_forged_0001' })).status).toBe(
    401,
  );
  emu.emulator.close();
});

test("every table's rows, and the state, stay inside an account's file", async () => {
  // Deliveries to a port nothing listens on: they fail, and stay in the account's rows.
  const emu = testEmulator();
  const file = await accountFile(emu);
  const cases: [string, (f: File) => void, string, string][] = [
    ['runs', (f) => set(f, 'runs', 0, 'account_id', DEFAULT_ACCOUNT), 'runs', 'account_id'],
    [
      'an event about a run not in the file',
      (f) => set(f, 'events', 0, 'resource_id', 'eval_elsewhere'),
      'events',
      'resource_id',
    ],
    [
      'a delivery to an endpoint not in the file',
      (f) => set(f, 'webhook_deliveries', 0, 'endpoint_id', 'whe_elsewhere'),
      'webhook_deliveries',
      'endpoint_id',
    ],
    [
      'a log of a run not in the file',
      (f) => set(f, 'run_logs', 0, 'run_id', 'eval_elsewhere'),
      'run_logs',
      'run_id',
    ],
    [
      'an id counter of another account',
      (f) => set(f, 'sequences', 0, 'stream', `${DEFAULT_ACCOUNT}/eval`),
      'sequences',
      'stream',
    ],
    ['the accounts row', (f) => set(f, 'accounts', 0, 'id', DEFAULT_ACCOUNT), 'accounts', 'id'],
    [
      'a journal entry',
      (f) => {
        f.world.state.journal[0]!.account_id = DEFAULT_ACCOUNT;
      },
      'state.journal',
      'account_id',
    ],
    [
      'fault rules',
      (f) => {
        f.world.state.faults = { rules: [], draw: [1, 2, 3, 4] };
      },
      'state',
      'faults',
    ],
  ];
  for (const [what, edit, table, column] of cases) {
    const error = await refused(emu, resealed(file, edit));
    expect({ what, ...error.details }).toMatchObject({ what, table, column });
  }
  // The file as downloaded loads, and restores.
  expect((await ctl(emu, 'POST', '/snapshots', { name: 'ok', snapshot: file })).status).toBe(201);
  expect((await ctl(emu, 'POST', '/snapshots/ok/restore')).status).toBe(200);
  emu.emulator.close();
});

test('a value its repository cannot read is refused naming table and column; accounts still list', async () => {
  const emu = testEmulator();
  await emu.api('POST', '/v1/evaluations', { body: { spec: { path: 'a', name: 'b' } } });
  await emu.control('POST', '/snapshots', { name: 'world' });
  const file: File = (await ctl(emu, 'GET', '/snapshots/world/download')).json;
  const cases: [string, string, unknown, RegExp][] = [
    ['accounts', 'clock_now', 'abc', /expected number, received string/],
    ['accounts', 'features', 'twins', /expected JSON text/],
    [
      'accounts',
      'limits',
      '{"requests_per_minute": "x"}',
      /requests_per_minute: .*expected number/,
    ],
    ['accounts', 'token_balance', '100', /expected number, received string/],
    ['accounts', 'clock_mode', 'sometimes', /expected a clock mode/],
    ['api_keys', 'scopes', 'everything', /expected JSON text/],
    ['api_keys', 'scopes', '["root:write"]', /Invalid option/],
    ['api_keys', 'created_at', 'yesterday', /expected an RFC 3339 instant/],
    ['api_keys', 'account_id', 'acct_nobody', /'acct_nobody' names no account in the file/],
    ['runs', 'state', '{"status": "queued"}', /column state, row 0: phase: Invalid input/],
    ['runs', 'state', '{"status": "queued", "run": {"schedule": [1]}}', /expected run state text/],
    ['runs', 'kind', 'widget', /Invalid option/],
  ];
  for (const [table, column, value, message] of cases) {
    const error = await refused(
      emu,
      resealed(file, (f) => set(f, table, 0, column, value)),
    );
    expect({ column, ...error.details }).toEqual({ column, table, row: 0 });
    expect(error.message).toMatch(message);
  }
  expect((await ctl(emu, 'GET', '/accounts')).status).toBe(200);
  emu.emulator.close();
});

test("a --db file's account row edited by hand: GET /_control/accounts lists the others", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bad-row-'));
  const db = join(dir, 'world.db');
  const emu = testEmulator({ db });
  await emu.control('POST', '/accounts', { id: 'acct_broken' });
  // What a sqlite3 shell on the file can do while the emulator runs.
  const shell = new Database(db);
  shell
    .prepare("UPDATE accounts SET features = 'twins', clock_now = 'abc' WHERE id = ?")
    .run('acct_broken');
  shell.close();
  const listed = await ctl(emu, 'GET', '/accounts');
  expect(listed.status).toBe(200);
  const ids = listed.json.data.map((a: { id: string }) => a.id);
  expect(ids).toContain(DEFAULT_ACCOUNT);
  expect(ids).not.toContain('acct_broken');
  emu.emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

test("an endpoint's or a delivery's receiver chaos it cannot read is refused naming the column", async () => {
  // Deliveries to a port nothing listens on: the forged one is made with the real one.
  const emu = testEmulator();
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'http://127.0.0.1:9/h',
    chaos: { bad_signature: true },
  });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/events`, {
    type: 'evaluation.queued',
    data: { object: { id: 'eval_1', object: 'evaluation' } },
  });
  await emu.control('POST', '/snapshots', { name: 'chaos' });
  const file: File = (await ctl(emu, 'GET', '/snapshots/chaos/download')).json;
  const deliveries = file.world.tables.webhook_deliveries!;
  const forged = deliveries.rows.findIndex(
    (r) => r[deliveries.columns.indexOf('chaos')] === 'bad_signature',
  );
  expect(forged).toBeGreaterThanOrEqual(0);
  const all = (bad: number) =>
    JSON.stringify({
      duplicate: 0,
      out_of_order: 0,
      stale_timestamp: 0,
      bad_signature: bad,
      unknown_type: 0,
    });
  const cases: [string, number, unknown, RegExp][] = [
    ['webhook_endpoints', 0, all(2), /bad_signature: .*<=1/],
    ['webhook_endpoints', 0, 'often', /expected JSON text/],
    ['webhook_endpoints', 0, '{"bad_signature": 1}', /duplicate: .*expected number/],
    ['webhook_deliveries', forged, 'sometimes', /Invalid option/],
  ];
  for (const [table, row, value, message] of cases) {
    const error = await refused(
      emu,
      resealed(file, (f) => set(f, table, row, 'chaos', value)),
    );
    expect({ table, ...error.details }).toEqual({ table, column: 'chaos', row });
    expect(error.message).toMatch(message);
  }
  expect((await ctl(emu, 'POST', '/snapshots', { name: 'ok', snapshot: file })).status).toBe(201);
  emu.emulator.close();
});
