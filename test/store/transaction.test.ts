import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/driver.js';
import { createTransactor } from '../../src/store/transaction.js';

function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v INTEGER)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  const values = () =>
    db
      .prepare<[], { v: number }>('SELECT v FROM t ORDER BY v')
      .all()
      .map((r) => r.v);
  return { db, tx: createTransactor(db), insert: (v: number) => void insert.run(v), values };
}

describe('createTransactor', () => {
  it('commits what fn wrote and returns its result', () => {
    const { db, tx, insert, values } = table();
    const result = tx(() => {
      insert(1);
      return 'done';
    });
    expect(result).toBe('done');
    expect(db.inTransaction).toBe(false);
    expect(values()).toEqual([1]);
  });

  it('rolls everything back when fn throws, and rethrows', () => {
    const { db, tx, insert, values } = table();
    expect(() =>
      tx(() => {
        insert(1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.inTransaction).toBe(false);
    expect(values()).toEqual([]);
  });

  it('nests as a savepoint: an inner throw undoes only the inner writes', () => {
    const { db, tx, insert, values } = table();
    tx(() => {
      insert(1);
      expect(() =>
        tx(() => {
          insert(2);
          throw new Error('inner');
        }),
      ).toThrow('inner');
      expect(db.inTransaction).toBe(true);
      tx(() => insert(3));
    });
    expect(values()).toEqual([1, 3]);
  });

  it('an outer throw undoes the inner writes it had released', () => {
    const { tx, insert, values } = table();
    expect(() =>
      tx(() => {
        tx(() => insert(1));
        throw new Error('outer');
      }),
    ).toThrow('outer');
    expect(values()).toEqual([]);
  });
});
