/**
 * Migration 012 (STYLE.md: a test per migration) on a world this engine made: a `--db` file
 * written by today's code is turned back into what version 11 held (no `status` column, the
 * status index on the state's JSON, every attempt's log and listing as rows, events carrying
 * whole snapshots, idempotency records in a WITHOUT ROWID table), then opened again. Everything
 * must read as it did, the stored rows stay authoritative for those attempts, and a resume
 * starts an attempt whose log and listing are derived.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS } from '../../src/store/migrate.js';
import { unpackBytes, unpackText } from '../../src/store/packed-text.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Emu = ReturnType<typeof testEmulator>;

/** What a client reads of a run: its body, log, listing and events. */
async function reads(emu: Emu, id: string) {
  const run = (await emu.api('GET', `/v1/evaluations/${id}`)).json;
  const logs = (await emu.api('GET', `/v1/sim_runs/${id}/logs?limit=5000`)).json;
  const listing = await emu.api('GET', `/v1/sim_runs/${id}/files?limit=1000`);
  // A run that did not succeed has no listing: its 409's code (request ids count anew).
  const files = listing.status === 200 ? listing.json : listing.json.error.code;
  const events = (await emu.api('GET', `/v1/events?resource=${id}&limit=100`)).json;
  return { run, logs, files, events };
}

/** Turns a version-12 file back into version 11's layout, with `logs` and `files` as rows. */
function asVersion11(
  file: string,
  outputs: Map<
    string,
    { logs: string[]; files: { path: string; bytes: number; sha256: string }[] }
  >,
  snapshots: Map<string, unknown>,
) {
  const db = new Database(file);
  // Version 11 kept states and replay bodies as they are, not packed.
  const setState = db.prepare('UPDATE runs SET state = ? WHERE seq = ?');
  for (const r of db.prepare('SELECT seq, state FROM runs').all() as {
    seq: number;
    state: Buffer;
  }[])
    setState.run(unpackText(r.state), r.seq);
  const setBody = db.prepare('UPDATE idempotency_records SET body = ? WHERE seq = ?');
  for (const r of db.prepare('SELECT seq, body FROM idempotency_records').all() as {
    seq: number;
    body: Buffer;
  }[])
    setBody.run(unpackBytes(r.body), r.seq);
  db.exec(`
    DROP INDEX runs_kind_status;
    ALTER TABLE runs DROP COLUMN status;
    CREATE INDEX runs_kind_status ON runs(account_id, kind, json_extract(state, '$.status'), seq);
    CREATE INDEX evaluations_account ON runs(account_id, seq);
    ALTER TABLE events DROP COLUMN attempt;
    CREATE TABLE idempotency_11 (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key TEXT NOT NULL, request_hash TEXT NOT NULL, status INTEGER NOT NULL,
      headers TEXT NOT NULL, body BLOB NOT NULL, created_at_ms INTEGER NOT NULL,
      PRIMARY KEY (account_id, key)
    ) WITHOUT ROWID;
    INSERT INTO idempotency_11 SELECT account_id, key, request_hash, status, headers, body,
      created_at_ms FROM idempotency_records;
    DROP TABLE idempotency_records;
    ALTER TABLE idempotency_11 RENAME TO idempotency_records;
  `);
  // Version 11 kept the whole snapshot in each event.
  const setSnapshot = db.prepare('UPDATE events SET snapshot = ? WHERE id = ?');
  for (const [id, snapshot] of snapshots) setSnapshot.run(JSON.stringify(snapshot), id);
  const line = db.prepare('INSERT INTO run_logs (run_id, seq, line) VALUES (?, ?, ?)');
  const entry = db.prepare(
    'INSERT INTO run_files (run_id, path, bytes, sha256) VALUES (?, ?, ?, ?)',
  );
  for (const [id, { logs, files }] of outputs) {
    for (const [i, text] of logs.entries()) line.run(id, i, text);
    for (const f of files) entry.run(id, f.path, f.bytes, f.sha256);
  }
  db.pragma('user_version = 11');
  db.close();
}

test('migration 012 keeps every read of a version-11 world, and a resume derives the new attempt', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-012-'));
  dirs.push(dir);
  const file = join(dir, 'world.db');
  const before = testEmulator({ db: file });
  const created = await before.api('POST', '/v1/evaluations', {
    body: { spec: { path: 'specs/pick.py', name: 'pick' } },
    headers: { 'idempotency-key': 'migrate-012' },
  });
  const failing = await before.api('POST', '/v1/evaluations', {
    body: {
      spec: { path: 'specs/pick.py', name: 'fails' },
      options: { emulator: { outcomes: [{ fail: 'interrupted', at: 'running' }] } },
    },
  });
  await before.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 60 });
  const ids = [created.json.id as string, failing.json.id as string];
  const expected = await Promise.all(ids.map((id) => reads(before, id)));
  expect(expected.map((r) => r.run.status)).toEqual(['succeeded', 'failed']);
  const { events } = before.emulator.deps.store;
  const snapshots = new Map(
    events.list(DEFAULT_ACCOUNT, { limit: 1000 }).data.map((e) => [e.id, e.snapshot] as const),
  );
  before.emulator.close();
  asVersion11(
    file,
    new Map(
      ids.map((id, i) => [
        id,
        { logs: expected[i]!.logs.lines, files: expected[i]!.files.data ?? [] },
      ]),
    ),
    snapshots,
  );

  const after = testEmulator({ db: file });
  expect(after.emulator.deps.store.db.pragma('user_version', { simple: true })).toBe(
    MIGRATIONS.length,
  );
  for (const [i, id] of ids.entries()) expect(await reads(after, id)).toEqual(expected[i]);
  const succeeded = await after.api('GET', '/v1/evaluations?status=succeeded');
  expect(succeeded.json.data.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
  const replay = await after.api('POST', '/v1/evaluations', {
    body: { spec: { path: 'specs/pick.py', name: 'pick' } },
    headers: { 'idempotency-key': 'migrate-012' },
  });
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.text).toBe(created.text);

  // The stored rows are what those attempts show: a line only the row has is read.
  const { db } = after.emulator.deps.store;
  db.prepare("UPDATE run_logs SET line = 'kept as a row' WHERE run_id = ? AND seq = 0").run(ids[1]);
  const logs = await after.api('GET', `/v1/sim_runs/${ids[1]}/logs`);
  expect(logs.json.lines[0]).toBe('kept as a row');

  // A resume starts an attempt whose log is derived; the old attempt's rows go.
  expect((await after.api('POST', `/v1/evaluations/${ids[1]}/resume`)).status).toBe(202);
  const count = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM run_logs WHERE run_id = ?',
  );
  expect(count.get(ids[1]!)?.n).toBe(0);
  const resumed = await after.api('GET', `/v1/sim_runs/${ids[1]}/logs`);
  expect(resumed.json.lines).toHaveLength(1);
  expect(resumed.json.lines[0]).toContain('attempt 2');
  after.emulator.close();
});
