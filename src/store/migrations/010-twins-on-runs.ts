import type { Database } from 'better-sqlite3';
import type { RunAttempt, RunRecord } from '../../domain/records.js';
import type { Schedule } from '../../domain/run-schedule.js';
import {
  LEGACY_TWIN_SOURCE,
  seededTwinRequest,
  seededTwinState,
} from '../../kinds/twins/seeded.js';

interface TwinRow {
  id: string;
  account_id: string;
  status: RunRecord['state']['status'];
  created_at: string;
  run: string | null;
  next_at: number | null;
}

/** A twin's build on the clock as an older emulator stored it. */
interface LegacyBuild {
  schedule: Schedule;
  fileCount: number;
  appliedUntil: number;
}

/**
 * Twins move onto the run engine (DESIGN.md section 7): every `twins` row becomes a `runs` row
 * of kind `twin`, in the same order, and every `twin_files` row a `run_files` row. A twin seeded
 * in a fixed state becomes a seeded run in that state; one built on the clock keeps its schedule
 * (one `processing` phase) as its attempt. Either keeps its seeded listing (`given_files`), so
 * it builds no archive. Their events' snapshots become run snapshots. Then both tables go.
 */
export function migrate010(db: Database): void {
  const insertRun = db.prepare(
    'INSERT INTO runs (id, account_id, kind, request, state, created_at, next_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const count = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM twin_files WHERE twin_id = ?',
  );
  const twins = db.prepare<[], TwinRow>('SELECT * FROM twins ORDER BY seq').all();
  for (const twin of twins) {
    const build: LegacyBuild | null = twin.run ? JSON.parse(twin.run) : null;
    const files = count.get(twin.id)?.n ?? 0;
    const request = seededTwinRequest(LEGACY_TWIN_SOURCE, files);
    const state = seededTwinState(twin.status, twin.created_at, LEGACY_TWIN_SOURCE);
    if (build) {
      const attempt: RunAttempt = {
        attempt: 1,
        schedule: build.schedule,
        outcome: build.schedule.failed ? { fail: 'reconstruction_failed' } : { succeed: {} },
        estimate: 0,
        cancel: null,
        appliedUntil: build.appliedUntil,
      };
      // What the schedule says by now; reading the run derives the rest from it.
      Object.assign(state, {
        run: attempt,
        episodes: { done: 0, total: build.schedule.totalSteps },
        started_at: null,
        completed_at: null,
        error: null,
        result: null,
        plan: [attempt.outcome],
      });
    }
    insertRun.run(
      twin.id,
      twin.account_id,
      'twin',
      JSON.stringify(request),
      JSON.stringify(state),
      twin.created_at,
      twin.next_at,
    );
  }
  db.exec(`
    INSERT INTO run_files (run_id, path, bytes, sha256)
      SELECT twin_id, path, bytes, sha256 FROM twin_files;
    DROP TABLE twin_files;
    DROP TABLE twins;
  `);
  migrateEvents(db);
}

interface LegacyTwinSnapshot {
  kind: 'twin';
  twin: {
    id: string;
    status: RunRecord['state']['status'];
    file_count: number;
    created_at: string;
  };
}

/** A twin event's snapshot, `{id, status, file_count, created_at}`, as a run's. */
function migrateEvents(db: Database): void {
  const rows = db
    .prepare<[], { seq: number; snapshot: string }>(
      `SELECT seq, snapshot FROM events WHERE json_extract(snapshot, '$.kind') = 'twin'`,
    )
    .all();
  const save = db.prepare('UPDATE events SET snapshot = ? WHERE seq = ?');
  for (const row of rows) {
    const { twin } = JSON.parse(row.snapshot) as LegacyTwinSnapshot;
    const snapshot = {
      kind: 'run',
      runKind: 'twin',
      run: {
        id: twin.id,
        createdAt: twin.created_at,
        request: seededTwinRequest(LEGACY_TWIN_SOURCE, twin.file_count),
        state: seededTwinState(twin.status, twin.created_at, LEGACY_TWIN_SOURCE),
      },
    };
    save.run(JSON.stringify(snapshot), row.seq);
  }
}
