/**
 * The runs repository remembers ids `get` found no run for (store/runs.ts): after every
 * committed or rolled-back write, each read answers what the table holds. Inserts of ids that
 * were missed (in the same account or another), accounts deleted with their runs, reads inside
 * and outside transactions that commit or roll back.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { RunRecord } from '../../src/domain/records.js';
import { storeWithAccounts } from './support.js';

const ACCOUNTS = ['acct_a', 'acct_b'];
const IDS = ['run_0', 'run_1', 'run_2', 'run_3'];

test('a read always answers what the table holds, through misses, inserts and rollbacks', () => {
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('insert' as const),
      account: fc.constantFrom(...ACCOUNTS),
      id: fc.constantFrom(...IDS),
    }),
    fc.record({
      kind: fc.constant('read' as const),
      account: fc.constantFrom(...ACCOUNTS),
      id: fc.constantFrom(...IDS),
    }),
    fc.record({
      kind: fc.constant('drop account' as const),
      account: fc.constantFrom(...ACCOUNTS),
    }),
  );
  const step = fc.record({
    ops: fc.array(op, { minLength: 1, maxLength: 4 }),
    rollback: fc.boolean(),
    inTransaction: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
      const { store, addAccount } = storeWithAccounts(ACCOUNTS);
      const { db } = store;
      const truth = db.prepare<[string, string], { id: string }>(
        'SELECT id FROM runs WHERE id = ? AND account_id = ?',
      );
      const run = (ops: (typeof steps)[number]['ops']) => {
        for (const o of ops) {
          if (o.kind === 'insert') {
            // Ids are unique across accounts: an id already taken is not inserted again.
            if (db.prepare('SELECT 1 FROM runs WHERE id = ?').get(o.id)) continue;
            store.runs.insert({
              id: o.id,
              accountId: o.account,
              kind: 'evaluation',
              createdAt: 't',
              request: {} as RunRecord['request'],
              state: { status: 'queued' } as RunRecord['state'],
              nextAt: null,
            });
          } else if (o.kind === 'read') {
            expect(store.runs.get(o.account, o.id)?.id).toBe(truth.get(o.id, o.account)?.id);
          } else {
            db.prepare('DELETE FROM accounts WHERE id = ?').run(o.account);
            addAccount(o.account);
          }
        }
      };
      for (const s of steps) {
        if (!s.inTransaction) run(s.ops);
        else {
          try {
            store.tx(() => {
              run(s.ops);
              if (s.rollback) throw new Error('rollback');
            });
          } catch {}
        }
        for (const account of ACCOUNTS) {
          for (const id of IDS) {
            expect(store.runs.get(account, id)?.id).toBe(truth.get(id, account)?.id);
          }
        }
      }
      db.close();
    }),
    { numRuns: 300 },
  );
});
