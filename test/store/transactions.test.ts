/**
 * The store's transactions (`tx`, core/sqlite/store.ts): all or nothing, an inner one a savepoint
 * of the outer, work after commit run once the outermost commits and dropped by a rollback, and
 * no asynchronous function let in.
 */
import { expect, test } from 'vitest';
import { openStore } from '../../src/areas/store.js';

const count = (store: ReturnType<typeof openStore>) =>
  store.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM sequences').get()!.n;

test('a transaction is all or nothing; an inner one rolls back alone', () => {
  const store = openStore(':memory:');
  expect(store.tx(() => store.sequences.next('a'))).toBe(1);
  expect(() =>
    store.tx(() => {
      store.sequences.next('b');
      throw new Error('undone');
    }),
  ).toThrow('undone');
  expect(count(store)).toBe(1);
  store.tx(() => {
    store.sequences.next('c');
    expect(() =>
      store.tx(() => {
        store.sequences.next('d');
        throw new Error('inner');
      }),
    ).toThrow('inner');
  });
  expect(count(store)).toBe(2);
  store.close();
});

test('work after commit runs once the outermost commits, and not after a rollback', () => {
  const store = openStore(':memory:');
  const ran: string[] = [];
  store.tx(() => {
    store.tx(() => store.onCommit(() => ran.push('inner')));
    expect(ran).toEqual([]);
  });
  expect(ran).toEqual(['inner']);
  expect(() =>
    store.tx(() => {
      store.onCommit(() => ran.push('dropped'));
      throw new Error('rolled back');
    }),
  ).toThrow('rolled back');
  expect(ran).toEqual(['inner']);
  store.close();
});

test('a function that answers a promise is refused and its writes undone', () => {
  const store = openStore(':memory:');
  expect(() =>
    store.tx(async () => {
      store.sequences.next('e');
    }),
  ).toThrow(TypeError);
  expect(count(store)).toBe(0);
  store.close();
});
