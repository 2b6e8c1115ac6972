/**
 * A run id an account has no run by is remembered as such (src/engine/store/runs.ts,
 * `unknownIds`) until a run with that id is written, by any statement or, on a file, by another
 * connection: then the next lookup finds it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openStore } from '../../src/areas/store.js';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';
import { storeWithAccounts } from './support.js';

const ID = 'eval_01KA00000000000000000UNKWN';
const OTHER = 'acct_unknownrunsother';
const dir = mkdtempSync(join(tmpdir(), 'svc-unknown-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A row of `runs` with this id, straight into the table. */
function insertRun(store: ReturnType<typeof openStore>, accountId: string, id = ID) {
  store.db
    .prepare(
      `INSERT INTO runs (id, account_id, kind, request, state, status, created_at, next_at)
       VALUES (?, ?, 'evaluation', '{}', '{"status":"queued"}', 'queued', 't', NULL)`,
    )
    .run(id, accountId);
}

test('a 404 for an unknown id, asked again, becomes the run once it is seeded with that id', async () => {
  const { api, control } = testEmulator();
  for (let i = 0; i < 3; i += 1)
    expectError(await api('GET', `/v1/evaluations/${ID}`), 404, 'resource_not_found', 'run_id');
  const seeded = await control('POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
    kind: 'evaluation',
    id: ID,
    spec: { path: 'a/spec.yaml', name: 'a' },
  });
  expect(seeded.id).toBe(ID);
  const found = await api('GET', `/v1/evaluations/${ID}`);
  expect(found.status).toBe(200);
  expect(found.json.id).toBe(ID);
});

test("an account's unknown id stays unknown while another account's runs are written", () => {
  const { store } = storeWithAccounts([DEFAULT_ACCOUNT, OTHER]);
  expect(store.runs.get(DEFAULT_ACCOUNT, ID)).toBeUndefined();
  insertRun(store, OTHER);
  expect(store.runs.get(OTHER, ID)?.id).toBe(ID);
  expect(store.runs.get(DEFAULT_ACCOUNT, ID)).toBeUndefined();
  // Moved to the account that asked: found.
  store.db.prepare('UPDATE runs SET account_id = ? WHERE id = ?').run(DEFAULT_ACCOUNT, ID);
  expect(store.runs.get(DEFAULT_ACCOUNT, ID)?.accountId).toBe(DEFAULT_ACCOUNT);
  store.close();
});

test('a run another connection writes to the file is found by the next lookup', () => {
  const file = join(dir, 'world.db');
  const reader = openStore(file);
  const writer = openStore(file);
  writer.db
    .prepare(
      `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode,
         clock_mode, clock_now, created_at) VALUES (?, 'a', '[]', 0, '{}', 'auth', 'manual', 0, 't')`,
    )
    .run(OTHER);
  expect(reader.runs.get(OTHER, ID)).toBeUndefined();
  expect(reader.runs.get(OTHER, ID)).toBeUndefined();
  insertRun(writer, OTHER);
  expect(reader.runs.get(OTHER, ID)?.id).toBe(ID);
  writer.close();
  reader.close();
});
