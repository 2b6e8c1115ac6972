import type { Database } from 'better-sqlite3';
import type { Scenario } from '../contract/scenarios.js';

export function createScenarioRepo(db: Database) {
  const insert = db.prepare(
    'INSERT INTO scenarios (id, account_id, body, created_at) VALUES (?, ?, ?, ?)',
  );
  const byId = db.prepare<[string, string], { body: string }>(
    'SELECT body FROM scenarios WHERE id = ? AND account_id = ?',
  );
  return {
    insert: (accountId: string, scenario: Scenario) =>
      void insert.run(scenario.id, accountId, JSON.stringify(scenario), scenario.created_at),
    get: (accountId: string, id: string): Scenario | undefined => {
      const row = byId.get(id, accountId);
      return row && JSON.parse(row.body);
    },
  };
}
export type ScenarioRepo = ReturnType<typeof createScenarioRepo>;
