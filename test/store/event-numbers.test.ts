/**
 * An account's event counter (store/events.ts `nextNumber`, from which event ids are made) is
 * one past its last event's. A `sequences` row is the oracle: beside each event the test moves
 * such a row in the same transaction, and the two must agree through commits, rollbacks (nested
 * savepoints too), and accounts deleted and made again.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { storeWithAccounts } from './support.js';

const ACCOUNTS = ['acct_a', 'acct_b'];

test('the event counter agrees with a transactional counter row through any history', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('event' as const), account: fc.constantFrom(...ACCOUNTS) }),
    fc.record({ kind: fc.constant('recreate' as const), account: fc.constantFrom(...ACCOUNTS) }),
  );
  const step = fc.record({
    ops: fc.array(op, { minLength: 1, maxLength: 5 }),
    rollback: fc.boolean(),
    nested: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
      const { store, addAccount } = storeWithAccounts(ACCOUNTS);
      const { db } = store;
      let serial = 0;
      const run = (ops: (typeof steps)[number]['ops']) => {
        for (const o of ops) {
          if (o.kind === 'event') {
            const n = store.events.nextNumber(o.account);
            // The oracle: what the sequences row gave, in the same transaction.
            expect(n).toBe(store.sequences.next(`${o.account}/oracle`));
            store.events.insert(
              {
                id: `evt_${serial++}`,
                accountId: o.account,
                type: 'evaluation.queued',
                resourceId: 'eval_x',
                previousStatus: null,
                createdAt: 't',
              },
              { n, snapshot: null, attempt: 1, previous: null },
            );
          } else {
            // The account goes with its events; the oracle's row restarts with it.
            db.prepare('DELETE FROM accounts WHERE id = ?').run(o.account);
            store.sequences.clearScope(o.account);
            addAccount(o.account);
          }
        }
      };
      for (const s of steps) {
        try {
          store.tx(() => {
            if (!s.nested) {
              run(s.ops);
              if (s.rollback) throw new Error('rollback');
              return;
            }
            try {
              store.tx(() => {
                run(s.ops);
                if (s.rollback) throw new Error('inner rollback');
              });
            } catch {}
            // The outer transaction goes on after its savepoint rolled back.
            run([{ kind: 'event', account: 'acct_a' }]);
          });
        } catch {}
      }
      db.close();
    }),
    { numRuns: 300 },
  );
});
