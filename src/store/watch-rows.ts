import type { Database } from 'better-sqlite3';

type RowEvent = 'insert' | 'update' | 'delete';
const ALL_EVENTS: readonly RowEvent[] = ['insert', 'update', 'delete'];

/**
 * Calls `changed(accountId)` on every insert, update and delete of `table`, whichever code makes
 * it (cascades and repository methods added later included), before the statement returns:
 * temporary triggers calling an SQL function. How the in-memory caches of the store stay exact.
 * `column` names the account id of a row (`OLD` and `NEW` both, on update). With `updateOf`, an
 * update calls it only when one of those columns actually changed value (the rest of a row can
 * change without making the cache stale: a run's state, an account's balance).
 * @example watchRows(db, 'svc_due_changed', [{ table: 'twins', column: 'account_id' }], forget)
 */
export function watchRows(
  db: Database,
  fn: string,
  tables: readonly {
    table: string;
    column: string;
    on?: readonly RowEvent[];
    updateOf?: readonly string[];
  }[],
  changed: (accountId: unknown) => void,
): void {
  db.function(fn, { deterministic: false }, (accountId: unknown) => {
    changed(accountId);
    return null;
  });
  for (const { table, column, on = ALL_EVENTS, updateOf } of tables) {
    const call = (row: 'OLD' | 'NEW') => `SELECT ${fn}(${row}.${column});`;
    const body = {
      insert: call('NEW'),
      update: `${call('OLD')} ${call('NEW')}`,
      delete: call('OLD'),
    };
    // `IS NOT` compares NULLs as values: NULL to 1 is a change.
    const when = (event: RowEvent) =>
      event === 'update' && updateOf
        ? `WHEN ${updateOf.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')}`
        : '';
    for (const event of on) {
      db.exec(
        `CREATE TEMP TRIGGER ${table}_${event}_${fn} AFTER ${event.toUpperCase()} ON main.${table}
           ${when(event)} BEGIN ${body[event]} END;`,
      );
    }
  }
}
