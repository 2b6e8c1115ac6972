import { createCursorList } from '../../core/sqlite/cursor-list.js';
import type { Database } from '../../core/sqlite/sqlite.js';
import type { Scenario } from './contract.js';

/** A stored scenario, `builtin` (false: stored ones are the account's own) first, as reads show it. */
const fromBody = (body: string): Scenario => ({ builtin: false, ...JSON.parse(body) });

/** The account's own scenarios (built-in ones are derived from the catalog, never stored). */
export function createScenarioRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO scenarios (id, account_id, body, created_at) VALUES (?, ?, ?, ?)',
  );
  const byId = db.prepare<[string, string], { body: string }>(
    'SELECT body FROM scenarios WHERE id = ? AND account_id = ?',
  );
  // Nothing refers to a scenario by key, so deletion removes the row: a deleted id then reads
  // exactly like an unknown one (404), as DESIGN.md section 3 asks of deleted resources.
  const remove = db.prepare('DELETE FROM scenarios WHERE id = ? AND account_id = ?');
  const pages = createCursorList(db, 'scenarios', (row: { body: string }) => fromBody(row.body));
  return {
    insert: (accountId: string, scenario: Scenario) =>
      void insert.run(scenario.id, accountId, JSON.stringify(scenario), scenario.created_at),
    get: (accountId: string, id: string): Scenario | undefined => {
      const row = byId.get(id, accountId);
      return row && fromBody(row.body);
    },
    /** Removes one of the account's scenarios; false when it has none by that id. */
    remove: (accountId: string, id: string): boolean => remove.run(id, accountId).changes > 0,
    owns: pages.owns,
    list: pages.list,
  };
}
export type ScenarioRepo = ReturnType<typeof createScenarioRepo>;

declare module '../../core/sqlite/store.js' {
  interface Repositories {
    scenarios: ScenarioRepo;
  }
}
