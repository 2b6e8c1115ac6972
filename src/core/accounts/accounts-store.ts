import type { Account } from '../records.js';
import type { Database } from '../sqlite/sqlite.js';

interface AccountRow {
  id: string;
  name: string;
  features: string;
  token_balance: number;
  limits: string;
  download_mode: string;
  clock_mode: string;
  clock_now: number;
  clock_wall: number | null;
  created_at: string;
}

function fromRow(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    features: JSON.parse(row.features),
    tokenBalance: row.token_balance,
    limits: JSON.parse(row.limits),
    downloadMode: row.download_mode as Account['downloadMode'],
    clockMode: row.clock_mode,
    clockNow: row.clock_now,
    clockWall: row.clock_wall,
    createdAt: row.created_at,
  };
}

/** The account of a row whose every column reads as the emulator writes it, else none. */
function readable(row: AccountRow): Account[] {
  try {
    const account = fromRow(row);
    const ok =
      Array.isArray(account.features) &&
      typeof account.limits === 'object' &&
      Number.isInteger(account.tokenBalance) &&
      Number.isInteger(account.clockNow) &&
      (account.clockWall === null || Number.isInteger(account.clockWall));
    return ok ? [account] : [];
  } catch {
    return [];
  }
}

export function createAccountRepo(db: Database) {
  const insert = db.prepare(
    `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode, clock_now, clock_wall, created_at)
     VALUES (@id, @name, @features, @tokenBalance, @limits, @downloadMode, @clockMode, @clockNow, @clockWall, @createdAt)`,
  );
  const byId = db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?');
  const all = db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY id');
  const newest = db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY rowid DESC');
  const setClock = db.prepare(
    'UPDATE accounts SET clock_mode = ?, clock_now = ?, clock_wall = ? WHERE id = ?',
  );
  const remove = db.prepare('DELETE FROM accounts WHERE id = ?');
  const balance = db.prepare<[string], { token_balance: number }>(
    'SELECT token_balance FROM accounts WHERE id = ?',
  );
  const adjust = db.prepare('UPDATE accounts SET token_balance = token_balance + ? WHERE id = ?');
  const charge = db.prepare(
    'UPDATE accounts SET token_balance = token_balance - ? WHERE id = ? AND token_balance >= ?',
  );
  return {
    insert: (a: Account) =>
      void insert.run({
        ...a,
        features: JSON.stringify(a.features),
        limits: JSON.stringify(a.limits),
      }),
    get: (id: string): Account | undefined => {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    list: (): Account[] => all.all().map(fromRow),
    /**
     * Every account whose row reads, the most recently created first: one row that does not (a
     * `--db` file edited by hand) leaves the others listed (`GET /_control/accounts`).
     */
    newestFirst: (): Account[] => newest.all().flatMap((row) => readable(row)),
    /** Records a clock's mode and anchor (virtual ms `now` at wall ms `wall`). */
    setClock: (id: string, clock: { mode: string; now: number; wall: number }) =>
      void setClock.run(clock.mode, clock.now, clock.wall, id),
    remove: (id: string) => void remove.run(id),
    balance: (id: string): number => balance.get(id)?.token_balance ?? 0,
    adjustBalance: (id: string, delta: number) => void adjust.run(delta, id),
    /** Takes `amount` if the balance covers it (one statement); false, and nothing taken, if not. */
    charge: (id: string, amount: number): boolean => charge.run(amount, id, amount).changes === 1,
  };
}
export type AccountRepo = ReturnType<typeof createAccountRepo>;
