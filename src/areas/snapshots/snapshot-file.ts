/**
 * Snapshot files (inferred, DESIGN.md section 8): a saved snapshot written out as JSON, and a
 * file read back (an upload, `--snapshot FILE`), refused whole when it is of another version,
 * changed, cut short or of another seed, or holds a value its table cannot read or a row outside
 * its scope (issue 36). The file itself is written as it is sent (world/snapshot-stream.ts).
 */
import type { z } from 'zod';
import { FileRefused, readRegularFile } from '../../core/bounded-read.js';
import { parseClockMode } from '../../core/clock.js';
import { MESSAGES } from '../../core/errors.js';
import { sha256Hex } from '../../core/sha256.js';
import { SCHEMA_VERSION } from '../../core/sqlite/migrate.js';
import type { Deps } from '../../engine/deps.js';
import { scopesOf } from '../../engine/kind-registry.js';
import { scenarioSchema } from '../scenarios/scenario-file.js';
import { columnChecks, firstBadCell } from './snapshot-columns.js';
import {
  SNAPSHOT_FILE_MAX_BYTES,
  SNAPSHOT_FORMAT,
  SnapshotFile,
  SnapshotHeader,
  type TableRows,
} from './snapshot-file-contract.js';
import { checkRoomAfter, checkRoomBefore } from './snapshot-limits.js';
import { firstOutOfScope } from './snapshot-scope.js';
import type { SnapshotTables, TableCopy } from './snapshot-tables.js';
import type { SavedSnapshot } from './snapshots-store.js';

/** What is wrong with a snapshot file, in a sentence; the caller says where it came from. */
export class SnapshotFileError extends Error {
  constructor(
    message: string,
    /** The table, row and column at fault, when it is one value. */
    readonly details: { table: string; row: number; column: string } | null = null,
  ) {
    super(message);
  }
}

/** Where a value at fault is, as the messages name it. */
const where = (i: { table: string; row: number; column: string }) =>
  `table ${i.table}, column ${i.column}, row ${i.row}`;
/** The details of an error about one value: its table, row and column. */
const at = (i: { table: string; row: number; column: string }) => ({
  table: i.table,
  row: i.row,
  column: i.column,
});

/** A cell read back: a BLOB from its base64. */
const cellIn = (v: TableRows['rows'][number][number]) =>
  v !== null && typeof v === 'object' ? Buffer.from(v.base64, 'base64') : v;

/** Reads a snapshot file from disk (`--snapshot FILE`, a regular file of at most 128 MiB) as JSON. */
export function readSnapshotFile(path: string): unknown {
  let text: string;
  try {
    text = readRegularFile(path, SNAPSHOT_FILE_MAX_BYTES, 'a snapshot file');
  } catch (err) {
    if (err instanceof FileRefused) throw new SnapshotFileError(err.message);
    throw new SnapshotFileError(`cannot read it: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt('it is not JSON'));
  }
}

/**
 * The seed a snapshot file was saved with, once its format and version are this emulator's
 * (`--snapshot` starts with that seed unless `--seed` names one).
 */
export function snapshotSeed(data: unknown, version: string): string {
  checkHeader(data, version);
  const seed = (data as { seed?: unknown }).seed;
  if (typeof seed !== 'string') throw new SnapshotFileError(MESSAGES.snapshotCorrupt('no seed'));
  return seed;
}

function checkHeader(data: unknown, version: string): void {
  const header = SnapshotHeader.safeParse(data);
  if (!header.success) {
    const format = (data as { format?: unknown } | null)?.format;
    if (format !== SNAPSHOT_FORMAT) throw new SnapshotFileError(MESSAGES.snapshotNotFile);
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt(issueText(header.error)));
  }
  const { emulator_version, schema_version } = header.data;
  if (emulator_version !== version || schema_version !== SCHEMA_VERSION)
    throw new SnapshotFileError(
      MESSAGES.snapshotVersion(emulator_version, schema_version, version, SCHEMA_VERSION),
    );
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** A snapshot file whose every row was checked: its header, its rows by table, their counts. */
export interface CheckedSnapshot {
  file: SnapshotFile;
  tables: Record<string, TableCopy>;
  counts: Record<string, number>;
}

/**
 * Checks a snapshot file read back, whole: its version, digest, seed, tables, every value and
 * every row's scope. A bad file throws `SnapshotFileError`.
 */
export function checkSnapshotFile(deps: Deps, data: unknown): CheckedSnapshot {
  checkHeader(data, deps.config.version);
  const world = (data as { world?: unknown }).world;
  if (world === undefined) throw new SnapshotFileError(MESSAGES.snapshotCorrupt('no world'));
  // The digest first: a cut or edited file is named as such, whatever else it breaks.
  if (sha256Hex(JSON.stringify(world)) !== (data as { sha256?: unknown }).sha256)
    throw new SnapshotFileError(
      MESSAGES.snapshotCorrupt('its content does not match its sha256 (changed or cut short)'),
    );
  const parsed = SnapshotFile.safeParse(data);
  if (!parsed.success)
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt(issueText(parsed.error)));
  const file = parsed.data;
  if (file.seed !== deps.config.seed)
    throw new SnapshotFileError(MESSAGES.snapshotSeed(file.seed, deps.config.seed));
  checkWorld(deps, file);
  const tables: Record<string, TableCopy> = {};
  const counts: Record<string, number> = {};
  const checks = columnChecks({
    kindNames: deps.kinds.list.map(({ kind }) => kind.name),
    scopes: scopesOf(deps.kinds),
  });
  for (const [table, t] of Object.entries(file.world.tables)) {
    tables[table] = { columns: t.columns, rows: t.rows.map((row) => row.map(cellIn)) };
    if (table !== 'sqlite_sequence') counts[table] = t.rows.length;
    // Every value as its repository reads it: a cell it cannot read refuses the file whole.
    const bad = firstBadCell(checks, table, t.columns, tables[table].rows);
    if (bad)
      throw new SnapshotFileError(
        MESSAGES.snapshotCorrupt(`${where(bad)}: ${bad.message}`),
        at(bad),
      );
  }
  const outside = firstOutOfScope(file);
  if (outside)
    throw new SnapshotFileError(
      MESSAGES.snapshotScope(where(outside), outside.message),
      at(outside),
    );
  return { file, tables, counts };
}

/**
 * Checks a snapshot file read back and shelves it under `name` (its own when not given),
 * replacing a snapshot of that name; a bad file throws `SnapshotFileError` and shelves nothing.
 * @example shelveSnapshotFile(deps, readSnapshotFile('base.snapshot.json'))
 */
export function shelveSnapshotFile(deps: Deps, data: unknown, name?: string): SavedSnapshot {
  const checked = checkSnapshotFile(deps, data);
  const shelf = deps.store.snapshots;
  const shelved = name ?? checked.file.name;
  checkRoomBefore(deps, shelved, false);
  const snapshot = writeSnapshotCopy(deps, checked, shelf.tables, shelf.nextTag(), shelved, (n) =>
    checkRoomAfter(deps, n),
  );
  shelf.put(snapshot);
  return snapshot;
}

/**
 * A checked file's rows written as a copy under `tag` in `tables` (the shelf's, or a
 * recording's); `check` sees the bytes it takes, in its transaction.
 */
export function writeSnapshotCopy(
  deps: Deps,
  { file, tables: rows, counts }: CheckedSnapshot,
  tables: SnapshotTables,
  tag: string,
  name: string,
  check?: (storedBytes: number) => void,
): SavedSnapshot {
  const account = file.scope === 'account' ? file.account : null;
  let storedBytes: number;
  try {
    storedBytes = deps.store.tx(() => {
      const before = tables.storedBytes();
      tables.write(tag, account, rows);
      tables.saveJournal(tag, file.world.state.journal);
      const stored = tables.storedBytes() - before;
      check?.(stored);
      return stored;
    });
  } catch (err) {
    // Rows the tables' constraints refuse (a NULL where none may be, a duplicate key).
    if ((err as { code?: unknown }).code?.toString().startsWith('SQLITE_'))
      throw new SnapshotFileError(MESSAGES.snapshotCorrupt((err as Error).message));
    throw err;
  }
  const { journal, ...state } = file.world.state;
  return {
    name,
    createdAt: file.created_at,
    scope: file.scope,
    account: file.account,
    seed: file.seed,
    counts: {
      ...counts,
      fault_rules: state.faults?.rules.length ?? 0,
      journal: journal.length,
    },
    state,
    tag,
    storedBytes,
  };
}

/** The file's tables are this emulator's, and a whole world's has every part of the emulator. */
function checkWorld(deps: Deps, file: SnapshotFile): void {
  const account = file.scope === 'account' ? file.account : null;
  if (file.scope === 'account' && account === null)
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt("an account's snapshot names no account"));
  const expected = deps.store.snapshots.tables.schema(account);
  const got = file.world.tables;
  for (const { name, columns } of expected) {
    const table = got[name];
    if (!table || table.columns.join() !== columns.join())
      throw new SnapshotFileError(
        MESSAGES.snapshotCorrupt(`table ${name} is missing or has other columns`),
      );
    if (table.rows.some((row) => row.length !== columns.length))
      throw new SnapshotFileError(
        MESSAGES.snapshotCorrupt(`a row of table ${name} has another length`),
      );
  }
  const extra = Object.keys(got).find((name) => !expected.some((t) => t.name === name));
  if (extra) throw new SnapshotFileError(MESSAGES.snapshotCorrupt(`unknown table ${extra}`));
  if (account !== null) return;
  const { state } = file.world;
  if (!state.request_ids || !state.faults || !state.system_clock || !state.scenario)
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt("a whole world's state is incomplete"));
  if (!parseClockMode(state.system_clock.mode))
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt('the emulator clock has no valid mode'));
  const scenario = scenarioSchema(deps.kinds).safeParse(state.scenario);
  if (!scenario.success)
    throw new SnapshotFileError(MESSAGES.snapshotCorrupt(`scenario: ${issueText(scenario.error)}`));
  state.scenario = scenario.data;
}
