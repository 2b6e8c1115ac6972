/**
 * How the runs repository writes a run's state (store/runs.ts `saveState`): at the row it was
 * read from or inserted at, never at another run's, with its `status` column (what listings by
 * status and the slots read) kept equal to the state's.
 */
import { expect, test } from 'vitest';
import type { RunRecord } from '../../src/domain/records.js';
import { isPacked, unpackText } from '../../src/store/packed-text.js';
import { PAGE_BYTES } from '../../src/store/store.js';
import { storeWithAccounts } from './support.js';

const A = 'acct_a';

function record(id: string, status: string): RunRecord {
  return {
    id,
    accountId: A,
    kind: 'evaluation',
    createdAt: 't',
    request: {} as RunRecord['request'],
    state: { status } as RunRecord['state'],
    nextAt: null,
  };
}

/** The rows, each state as its JSON text (a succeeded run's is stored packed, others as text). */
function rows(store: ReturnType<typeof storeWithAccounts>['store']) {
  const all = store.db.prepare('SELECT seq, id, status, state FROM runs ORDER BY seq').all() as {
    seq: number;
    id: string;
    status: string;
    state: string | Buffer;
  }[];
  for (const row of all) expect(isPacked(row.state), row.status).toBe(row.status === 'succeeded');
  return all.map((row) => ({ ...row, state: unpackText(row.state) }));
}

test('a state saved changes only its own row, its status column with it or without a change', () => {
  const { store } = storeWithAccounts([A]);
  const first = record('eval_1', 'failed');
  store.runs.insert(first);
  store.runs.insert(record('eval_2', 'failed'));
  const read = store.runs.get(A, 'eval_2')!;
  read.state = { ...read.state, status: 'queued' };
  store.runs.saveState(read);
  first.state = { ...first.state, progress: 0.5 } as RunRecord['state'];
  store.runs.saveState(first);
  expect(rows(store)).toEqual([
    { seq: 1, id: 'eval_1', status: 'failed', state: '{"status":"failed","progress":0.5}' },
    { seq: 2, id: 'eval_2', status: 'queued', state: '{"status":"queued"}' },
  ]);
  expect(
    store.runs.list(A, 'evaluation', { status: 'queued', limit: 10 }).data.map((r) => r.id),
  ).toEqual(['eval_2']);
  expect(store.runs.active(A).map((r) => r.id)).toEqual(['eval_2']);
});

test('a run inserted by a transaction that rolled back never overwrites the run that takes its place', () => {
  const { store } = storeWithAccounts([A]);
  const ghost = record('eval_ghost', 'queued');
  expect(() =>
    store.tx(() => {
      store.runs.insert(ghost);
      throw new Error('rolled back');
    }),
  ).toThrow('rolled back');
  // The rollback undid the counter too: the next run is written where the ghost was.
  store.runs.insert(record('eval_real', 'queued'));
  ghost.state = { status: 'failed' } as RunRecord['state'];
  store.runs.saveState(ghost);
  expect(rows(store)).toEqual([
    { seq: 1, id: 'eval_real', status: 'queued', state: '{"status":"queued"}' },
  ]);
});

test('a new in-memory database has pages of 8 KiB', () => {
  const { store } = storeWithAccounts([A]);
  expect(PAGE_BYTES).toBe(8192);
  expect(store.db.pragma('page_size', { simple: true })).toBe(PAGE_BYTES);
});

test("a record's stored state is the row's while its state is the object read or written, else encoded anew", () => {
  const { store } = storeWithAccounts([A]);
  store.runs.insert(record('eval_1', 'failed'));
  const read = store.runs.get(A, 'eval_1')!;
  const row = () => store.db.prepare("SELECT state FROM runs WHERE id = 'eval_1'").pluck().get();
  // The value the row holds, kept (the same object each time, not packed again): a resume's
  // event stores it as it is.
  expect(store.runs.storedState(read)).toBe(store.runs.storedState(read));
  expect(store.runs.storedState(read)).toEqual(row());
  read.state = { ...read.state, status: 'queued' };
  expect(unpackText(store.runs.storedState(read))).toBe('{"status":"queued"}');
  store.runs.saveState(read);
  expect(store.runs.storedState(read)).toBe(store.runs.storedState(read));
  expect(store.runs.storedState(read)).toEqual(row());
  expect(unpackText(store.runs.storedState(read))).toBe('{"status":"queued"}');
  expect(unpackText(store.runs.storedState(record('eval_1', 'canceled')))).toBe(
    '{"status":"canceled"}',
  );
});

test('what a record remembers of its row stays out of sight, and is only its own store’s', () => {
  const { store } = storeWithAccounts([A]);
  const other = storeWithAccounts([A]).store;
  store.runs.insert(record('eval_1', 'failed'));
  other.runs.insert(record('eval_0', 'failed'));
  other.runs.insert(record('eval_1', 'failed'));
  const read = store.runs.get(A, 'eval_1')!;
  // Kept on the record itself (a WeakMap kept every record alive through V8's scavenges), yet
  // nothing a caller sees: its keys, its JSON, a copy made by spreading it.
  expect(Object.keys(read)).toEqual([
    'id',
    'accountId',
    'kind',
    'createdAt',
    'request',
    'state',
    'nextAt',
  ]);
  expect(JSON.parse(JSON.stringify(read))).toEqual(record('eval_1', 'failed'));
  const copy: RunRecord = { ...read, state: { ...read.state, status: 'queued' } };
  store.runs.saveState(copy);
  expect(rows(store)).toEqual([
    { seq: 1, id: 'eval_1', status: 'queued', state: '{"status":"queued"}' },
  ]);
  // The other store's row of the same id is at another seq: a record read here writes there by id.
  read.state = { ...read.state, status: 'canceled' };
  other.runs.saveState(read);
  expect(rows(other).map((r) => [r.seq, r.id, r.status])).toEqual([
    [1, 'eval_0', 'failed'],
    [2, 'eval_1', 'canceled'],
  ]);
});
