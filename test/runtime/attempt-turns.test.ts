import { setImmediate } from 'node:timers';
import { expect, test } from 'vitest';
import { AttemptTurns } from '../../src/areas/webhooks/turns.js';

/** One turn of the event loop (ours runs after the turns' own, queued before it). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Asks a turn for each of `accounts` in order; `order` records who got one, as they do. */
function ask(turns: AttemptTurns, accounts: string[]) {
  const order: string[] = [];
  for (const [i, account] of accounts.entries())
    void turns.next(account).then(() => order.push(`${account}${i}`));
  return order;
}

test('steps are taken by account in rotation, oldest first within an account', async () => {
  const turns = new AttemptTurns(1);
  const order = ask(turns, ['a', 'a', 'a', 'a', 'b', 'c', 'b']);
  for (let i = 0; i < 7; i++) await turn();
  // a asked first, four times; b and c, which asked later, are not kept waiting behind all of it.
  expect(order).toEqual(['a0', 'b4', 'c5', 'a1', 'b6', 'a2', 'a3']);
});

test('at most perTurn steps are made per turn of the event loop', async () => {
  const turns = new AttemptTurns(8);
  const order = ask(
    turns,
    Array.from({ length: 20 }, (_, i) => `acct${i % 3}`),
  );
  expect(order).toHaveLength(0);
  await turn();
  expect(order).toHaveLength(8);
  await turn();
  expect(order).toHaveLength(16);
  await turn();
  expect(order).toHaveLength(20);
});
