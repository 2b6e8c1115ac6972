import type { Database } from '../../core/sqlite/sqlite.js';
import type { FaultRule } from './contract.js';

/** Fault rules in the `--db` file (inferred), written as rules and their counters change. */
export class FaultRuleStore {
  private readonly upsertStmt;
  private readonly deleteStmt;

  constructor(private readonly db: Database) {
    this.upsertStmt = db.prepare(
      'INSERT INTO fault_rules (id, seq, body) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM fault_rules), ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body',
    );
    this.deleteStmt = db.prepare('DELETE FROM fault_rules WHERE id = ?');
  }

  save(rule: FaultRule): void {
    this.upsertStmt.run(rule.id, JSON.stringify(rule));
  }

  delete(id: string): void {
    this.deleteStmt.run(id);
  }

  clear(): void {
    this.db.exec('DELETE FROM fault_rules');
  }

  /** In creation order. */
  load(): FaultRule[] {
    const all = this.db.prepare<[], { body: string }>('SELECT body FROM fault_rules ORDER BY seq');
    return all.all().map((r) => JSON.parse(r.body) as FaultRule);
  }
}
