/**
 * Who an event goes to is kept per account (store/webhook-endpoints.ts `liveOfAccount`): each
 * answer must be what the table holds, after any write to it and after a transaction that read
 * it rolled back.
 */
import { expect, test } from 'vitest';
import { openStore } from '../../src/store/store.js';

function world() {
  const store = openStore(':memory:');
  store.db
    .prepare(
      `INSERT INTO accounts (id, name, features, token_balance, limits, download_mode, clock_mode,
         clock_now, created_at) VALUES ('acct_1', 'a', '[]', 0, '{}', 'auth', 'manual', 0, 't')`,
    )
    .run();
  const endpoint = (id: string) =>
    store.webhookEndpoints.insert({
      id,
      accountId: 'acct_1',
      url: `http://127.0.0.1:9/${id}`,
      events: ['*'],
      description: null,
      metadata: {},
      createdAt: 't',
      deletedAt: null,
    });
  const live = () => store.webhookEndpoints.liveOfAccount('acct_1').map((e) => e.id);
  return { store, endpoint, live };
}

test('an endpoint added, deleted or written straight to the table is seen at once', () => {
  const { store, endpoint, live } = world();
  expect(live()).toEqual([]);
  endpoint('whe_1');
  expect(live()).toEqual(['whe_1']);
  store.webhookEndpoints.markDeleted('whe_1', 't');
  expect(live()).toEqual([]);
  store.db.prepare("UPDATE webhook_endpoints SET deleted_at = NULL WHERE id = 'whe_1'").run();
  expect(live()).toEqual(['whe_1']);
});

test('what a transaction read and then rolled back is read again', () => {
  const { store, endpoint, live } = world();
  expect(live()).toEqual([]);
  expect(() =>
    store.tx(() => {
      endpoint('whe_rolled_back');
      expect(live()).toEqual(['whe_rolled_back']);
      throw new Error('roll back');
    }),
  ).toThrow('roll back');
  expect(live()).toEqual([]);
});
