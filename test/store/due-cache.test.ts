/**
 * The due cache (store/due-cache.ts) against the table: after every committed or rolled-back
 * write, each account's cached earliest instant is exactly what `MIN(next_at)` reads. Writes go
 * through the runs repository, the one code that writes `runs`: inserts, moves of records read
 * from it (and of copies it did not read, whose old instant it does not know), and accounts
 * deleted with their runs; in transactions that commit or roll back (some nested), with reads
 * in between that fill the cache.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { RunRecord } from '../../src/domain/records.js';
import { storeWithAccounts } from './support.js';

const ACCOUNTS = ['acct_a', 'acct_b'];
const at = fc.option(fc.integer({ min: 0, max: 50 }));

test('the cached earliest instant always equals MIN(next_at), through commits and rollbacks', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), account: fc.constantFrom(...ACCOUNTS), at }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), at, copy: fc.boolean() }),
    fc.record({
      kind: fc.constant('drop account' as const),
      account: fc.constantFrom(...ACCOUNTS),
    }),
    fc.record({ kind: fc.constant('read' as const), account: fc.constantFrom(...ACCOUNTS) }),
  );
  const step = fc.record({
    ops: fc.array(op, { minLength: 1, maxLength: 4 }),
    rollback: fc.boolean(),
    nested: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
      const { store, addAccount } = storeWithAccounts(ACCOUNTS);
      const { db } = store;
      const runs = () =>
        db
          .prepare<[], { id: string; account_id: string }>(
            'SELECT id, account_id FROM runs ORDER BY seq',
          )
          .all();
      const truth = db.prepare<[string], { at: number | null }>(
        'SELECT MIN(next_at) AS at FROM runs WHERE account_id = ?',
      );
      let serial = 0;
      const run = (ops: (typeof steps)[number]['ops']) => {
        for (const o of ops) {
          if (o.kind === 'insert') {
            const record: RunRecord = {
              id: `run_${serial++}`,
              accountId: o.account,
              kind: 'evaluation',
              createdAt: 't',
              request: {} as RunRecord['request'],
              state: { status: 'queued' } as RunRecord['state'],
              nextAt: o.at,
            };
            store.runs.insert(record);
          } else if (o.kind === 'read') {
            store.earliestDue(o.account);
          } else if (o.kind === 'drop account') {
            db.prepare('DELETE FROM accounts WHERE id = ?').run(o.account);
            addAccount(o.account);
          } else {
            const all = runs();
            if (all.length === 0) continue;
            const row = all[o.pick % all.length]!;
            const read = store.runs.get(row.account_id, row.id)!;
            const record = o.copy ? { ...read } : read;
            record.nextAt = o.at;
            store.runs.saveState(record);
          }
        }
      };
      for (const s of steps) {
        try {
          store.tx(() => {
            if (s.nested) {
              try {
                store.tx(() => {
                  run(s.ops);
                  if (s.rollback) throw new Error('inner rollback');
                });
              } catch {}
            } else {
              run(s.ops);
              if (s.rollback) throw new Error('rollback');
            }
          });
        } catch {}
        for (const id of ACCOUNTS) expect(store.earliestDue(id)).toBe(truth.get(id)?.at ?? null);
      }
      db.close();
    }),
    { numRuns: 300 },
  );
});

const SRC = join(import.meta.dirname, '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

test('only store/runs.ts writes the runs table, so the due cache hears of every move', () => {
  const writes =
    /\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+"?runs"?\b/i;
  const writers = sources(SRC)
    .map((file) => relative(SRC, file))
    .filter((file) => !file.startsWith('store/migrations/'))
    .filter((file) => writes.test(readFileSync(join(SRC, file), 'utf8')));
  expect(writers).toEqual(['store/runs.ts']);
});
