import { expect, test } from 'vitest';
import { openStore } from '../../src/areas/store.js';

test("the store holds the core's, the engine's and every area's repositories over one database", () => {
  const store = openStore(':memory:');
  // What the areas' store modules declare in `Repositories` (src/areas/store.ts composes them).
  for (const name of [
    'accounts',
    'keys',
    'sequences',
    'idempotency',
    'credentials',
    'earliestDue',
    'runs',
    'runLogs',
    'runFiles',
    'archives',
    'events',
    'scenarios',
    'userAssets',
    'webhookEndpoints',
    'snapshots',
  ])
    expect(store, name).toHaveProperty(name);
  expect(store.tx(() => store.accounts.list())).toEqual([]);
  store.close();
});
