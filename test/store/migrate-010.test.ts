/**
 * Migration 010 (STYLE.md: a test per migration): twins move into `runs` (kind `twin`) with
 * their listings in `run_files` and their events as run snapshots; `twins` and `twin_files` go.
 */

import { expect, test } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { MIGRATIONS, runMigrations } from '../../src/store/migrate.js';
import { migrate010 } from '../../src/store/migrations/010-twins-on-runs.js';

function databaseBefore010() {
  const db = new Database(':memory:');
  const at = MIGRATIONS.indexOf(migrate010);
  expect(at).toBeGreaterThan(0);
  for (const [i, migrate] of MIGRATIONS.slice(0, at).entries()) {
    migrate(db);
    db.pragma(`user_version = ${i + 1}`);
  }
  db.prepare(
    `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode,
       clock_now, created_at) VALUES ('acct_1', 'a', '["twins"]', 0, '{}', 'auth', 'manual', 0, 't')`,
  ).run();
  return db;
}

const schedule = {
  startMs: 0,
  queueEndMs: 1000,
  segments: [{ name: 'processing', startMs: 1000, endMs: 5000, steps: 0 }],
  endMs: 5000,
  failed: false,
  stepsAtEnd: 0,
  totalSteps: 0,
};

test('migration 010 moves twins, their files and their events onto runs, and drops the twin tables', () => {
  const db = databaseBefore010();
  const twin = db.prepare(
    `INSERT INTO twins (id, account_id, status, created_at, run, next_at)
     VALUES (?, 'acct_1', ?, ?, ?, ?)`,
  );
  twin.run('twin_fixed', 'succeeded', '2026-01-01T00:00:00.000Z', null, null);
  twin.run(
    'twin_clock',
    'processing',
    '2026-01-01T00:00:00.000Z',
    JSON.stringify({ schedule, fileCount: 1, appliedUntil: 2000 }),
    5000,
  );
  const file = db.prepare(
    `INSERT INTO twin_files (twin_id, path, bytes, sha256) VALUES (?, ?, ?, ?)`,
  );
  file.run('twin_fixed', 'a.usd', 1, 'a'.repeat(64));
  file.run('twin_fixed', 'b.usd', 2, 'b'.repeat(64));
  file.run('twin_clock', 'c.usd', 3, 'c'.repeat(64));
  db.prepare(
    `INSERT INTO events (id, account_id, type, resource_id, previous_status, snapshot, created_at)
     VALUES ('evt_1', 'acct_1', 'twin.processing', 'twin_clock', 'queued', ?, 't')`,
  ).run(
    JSON.stringify({
      kind: 'twin',
      twin: {
        id: 'twin_clock',
        object: 'twin',
        status: 'processing',
        file_count: 1,
        created_at: '2026-01-01T00:00:00.000Z',
      },
    }),
  );
  runMigrations(db);

  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((t) => t.name);
  expect(tables).not.toContain('twins');
  expect(tables).not.toContain('twin_files');

  const runs = db
    .prepare<[], { id: string; kind: string; request: string; state: string; next_at: number }>(
      'SELECT id, kind, request, state, next_at FROM runs ORDER BY seq',
    )
    .all();
  expect(runs.map((r) => [r.id, r.kind, r.next_at])).toEqual([
    ['twin_fixed', 'twin', null],
    ['twin_clock', 'twin', 5000],
  ]);
  const [fixed, clock] = runs.map((r) => ({
    request: JSON.parse(r.request),
    state: JSON.parse(r.state),
  }));
  expect(fixed!.request).toMatchObject({ seeded_file_count: 2, options: {}, label: null });
  expect(fixed!.state).toMatchObject({
    status: 'succeeded',
    progress: 1,
    given_files: true,
    completed_at: '2026-01-01T00:00:00.000Z',
  });
  expect(fixed!.state.run).toBeUndefined();
  expect(clock!.request).toMatchObject({ seeded_file_count: 1 });
  expect(clock!.state).toMatchObject({
    status: 'processing',
    given_files: true,
    run: { attempt: 1, schedule, outcome: { succeed: {} }, estimate: 0, appliedUntil: 2000 },
  });

  expect(
    db.prepare('SELECT run_id, path, bytes FROM run_files ORDER BY run_id, path').all(),
  ).toEqual([
    { run_id: 'twin_clock', path: 'c.usd', bytes: 3 },
    { run_id: 'twin_fixed', path: 'a.usd', bytes: 1 },
    { run_id: 'twin_fixed', path: 'b.usd', bytes: 2 },
  ]);
  const event = db.prepare<[], { snapshot: string }>('SELECT snapshot FROM events').get()!;
  expect(JSON.parse(event.snapshot)).toMatchObject({
    kind: 'run',
    runKind: 'twin',
    run: { id: 'twin_clock', state: { status: 'processing' } },
  });
  db.close();
});
