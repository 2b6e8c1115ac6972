/**
 * A snapshot's file (`GET /_control/snapshots/{name}/download`), made as it is sent: a page of
 * rows per turn of the event loop, so a large world is neither held whole in memory nor keeps
 * other calls waiting (issue 36). `sha256` comes last, once the world it covers has been written.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SCHEMA_VERSION } from '../../core/sqlite/migrate.js';
import type { Deps } from '../../engine/deps.js';
import { type HeldState, SNAPSHOT_FORMAT, SnapshotState } from './snapshot-file-contract.js';
import type { SnapshotTables } from './snapshot-tables.js';
import type { SavedSnapshot } from './snapshots-store.js';

/** Rows read and written per turn of the event loop: 100 runs' rows are about 0.5 MB of text. */
const PAGE_ROWS = 100;

/** A cell as the file holds it: a BLOB as base64. */
const cellOut = (v: unknown) => (Buffer.isBuffer(v) ? { base64: v.toString('base64') } : v);

/**
 * The file's text in pieces, of a copy in `tables` (the shelf's by default). The world's text is
 * exactly `JSON.stringify(world)` of the parsed file, which is what its `sha256` covers
 * (snapshot-file.ts checks it so).
 */
export async function* snapshotFileText(
  deps: Deps,
  s: SavedSnapshot,
  tables: SnapshotTables = deps.store.snapshots.tables,
): AsyncGenerator<string> {
  const head = JSON.stringify({
    format: SNAPSHOT_FORMAT,
    emulator_version: deps.config.version,
    schema_version: SCHEMA_VERSION,
    name: s.name,
    created_at: s.createdAt,
    scope: s.scope,
    account: s.account,
    seed: s.seed,
  });
  yield `${head.slice(0, -1)},"world":`;
  const digest = createHash('sha256');
  const world = (text: string) => {
    digest.update(text);
    return text;
  };
  yield world('{"tables":{');
  for (const [i, { name, columns }] of tables.schema(s.account).entries()) {
    const comma = i > 0 ? ',' : '';
    yield world(`${comma}${JSON.stringify(name)}:{"columns":${JSON.stringify(columns)},"rows":[`);
    let after: unknown[] | null = null;
    for (let first = true; ; first = false) {
      await nextTurn();
      const page = tables.page(s.tag, name, after, PAGE_ROWS);
      if (page.rows.length === 0) break;
      const rows = page.rows.map((row) => JSON.stringify(row.map(cellOut)));
      yield world(`${first ? '' : ','}${rows.join(',')}`);
      after = page.last;
    }
    yield world(']}');
  }
  yield world(`},"state":${stateText(s.state, tables.journalText(s.tag))}}`);
  yield `,"sha256":"${digest.digest('hex')}"}\n`;
}

/** `JSON.stringify` of the whole state, its keys in the contract's order, the journal's as kept. */
function stateText(state: HeldState, journal: string): string {
  const parts = Object.keys(SnapshotState.shape).map((key) => {
    const value = key === 'journal' ? journal : JSON.stringify(state[key as keyof HeldState]);
    return `${JSON.stringify(key)}:${value}`;
  });
  return `{${parts.join(',')}}`;
}

/**
 * The snapshot's file as a stream of UTF-8 bytes; its size is kept on the snapshot once sent
 * whole. The snapshot's copies stay while it is read, even if it is deleted meanwhile.
 * @example c.body(snapshotFileStream(deps, snapshotNamed(deps, 'base')), 200)
 */
export function snapshotFileStream(deps: Deps, s: SavedSnapshot): ReadableStream<Uint8Array> {
  const shelf = deps.store.snapshots;
  shelf.hold(s);
  let held = true;
  const release = () => {
    if (held) shelf.release(s);
    held = false;
  };
  const pieces = snapshotFileText(deps, s);
  const encoder = new TextEncoder();
  let bytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await pieces.next();
        if (next.done) {
          s.bytes = bytes;
          release();
          controller.close();
          return;
        }
        const chunk = encoder.encode(next.value);
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    async cancel() {
      release();
      await pieces.return(undefined);
    },
  });
}
