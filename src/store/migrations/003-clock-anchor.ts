import type { Database } from 'better-sqlite3';

/**
 * The wall time at which an account's clock stood at `clock_now`, so a `realtime` or `scaled:N`
 * clock restarted from a `--db` file carries on from where it had got to, never from before.
 * NULL until the clock is first used (then anchored at that instant).
 */
export function migrate003(db: Database): void {
  db.exec('ALTER TABLE accounts ADD COLUMN clock_wall INTEGER;');
}
