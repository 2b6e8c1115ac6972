/**
 * The lookups every product request makes (src/core/accounts/credentials.ts): one account's
 * writes leave another account's key and account remembered, and a write to a remembered row, by
 * any statement, is read by the next lookup.
 * test/api/auth-writes.test.ts drives the same through requests.
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET, testEmulator } from '../helpers.js';

const OTHER = 'acct_lookupsother';

async function twoAccounts() {
  const emu = testEmulator();
  const { key } = await emu.control('POST', '/accounts', {
    id: OTHER,
    name: 'other',
    token_balance: 1_000_000,
    clock: { mode: 'manual' },
  });
  const body = { spec: { path: 'a/spec.yaml', name: 'a' } };
  const run = await emu.api('POST', '/v1/evaluations', { secret: key.secret, body });
  expect(run.status).toBe(201);
  return {
    emu,
    store: emu.emulator.deps.store,
    otherSecret: key.secret as string,
    runId: run.json.id,
  };
}

test("another account's writes leave an account's key and account remembered", async () => {
  const { emu, store, otherSecret, runId } = await twoAccounts();
  const before = store.credentials(DEFAULT_SECRET)!;
  // The other account advances its clock, reads its run (settled as it is read) and gets a key.
  await emu.control('POST', `/accounts/${OTHER}/clock/advance`, { seconds: 3600 });
  await emu.api('GET', `/v1/evaluations/${runId}`, { secret: otherSecret });
  await emu.control('POST', `/accounts/${OTHER}/keys`, { name: 'more', scopes: [] });
  const after = store.credentials(DEFAULT_SECRET)!;
  expect(after.account).toBe(before.account);
  // Any key written forgets the keys (not the accounts): read again, equal.
  expect(after.key).not.toBe(before.key);
  expect(after.key).toEqual(before.key);
  expect(store.credentials(DEFAULT_SECRET)!.key).toBe(after.key);
});

test("a write to an account's row, by any statement, is read by the next lookup", async () => {
  const { store, otherSecret } = await twoAccounts();
  const other = store.credentials(otherSecret)!;
  const own = store.credentials(DEFAULT_SECRET)!;
  store.db.prepare('UPDATE accounts SET token_balance = 7 WHERE id = ?').run(OTHER);
  expect(store.credentials(otherSecret)!.account!.tokenBalance).toBe(7);
  expect(store.credentials(otherSecret)!.key).toBe(other.key);
  expect(store.credentials(DEFAULT_SECRET)!.account).toBe(own.account);
});

test("a write to an account's runs is read by the next due instant", async () => {
  const { store } = await twoAccounts();
  const due = store.earliestDue(OTHER);
  expect(due).toEqual(expect.any(Number));
  expect(store.earliestDue(DEFAULT_ACCOUNT)).toBeNull();
  store.db.prepare('UPDATE runs SET next_at = ? WHERE account_id = ?').run(due! + 5, OTHER);
  expect(store.earliestDue(OTHER)).toBe(due! + 5);
  store.db.prepare('DELETE FROM runs WHERE account_id = ?').run(OTHER);
  expect(store.earliestDue(OTHER)).toBeNull();
  expect(store.earliestDue(DEFAULT_ACCOUNT)).toBeNull();
});

test('a charge keeps the account remembered and reads only its balance again; any other column, the whole row', async () => {
  const { emu, store, otherSecret } = await twoAccounts();
  const before = store.credentials(otherSecret)!.account!;
  // A create charges the account: its balance alone is written.
  const body = { spec: { path: 'a/spec.yaml', name: 'a' } };
  expect((await emu.api('POST', '/v1/evaluations', { secret: otherSecret, body })).status).toBe(
    201,
  );
  const charged = store.credentials(otherSecret)!.account!;
  expect(charged.tokenBalance).toBe(store.accounts.balance(OTHER));
  expect(charged.tokenBalance).toBeLessThan(before.tokenBalance);
  // The rest is the object read before, not the row parsed again.
  expect(charged.limits).toBe(before.limits);
  expect(charged.features).toBe(before.features);
  expect(store.credentials(otherSecret)!.account).toBe(charged);
  // The balance and another column in one statement: the row is read again.
  store.db
    .prepare('UPDATE accounts SET token_balance = 9, name = ? WHERE id = ?')
    .run('renamed', OTHER);
  const renamed = store.credentials(otherSecret)!.account!;
  expect(renamed).toMatchObject({ name: 'renamed', tokenBalance: 9 });
  expect(renamed.limits).not.toBe(before.limits);
  // A balance written then rolled back: the balance read again is the one that stands.
  const tx = store.db.transaction(() => {
    store.db.prepare('UPDATE accounts SET token_balance = 1 WHERE id = ?').run(OTHER);
    throw new Error('rolled back');
  });
  expect(tx).toThrow('rolled back');
  expect(store.credentials(otherSecret)!.account!.tokenBalance).toBe(9);
});

test('a secret no key has is remembered as such until a key is written: then it authenticates', async () => {
  const { emu, store } = await twoAccounts();
  const secret = 'svc_test_not_yet_a_key';
  expect((await emu.api('GET', '/v1/keys/me', { secret })).status).toBe(401);
  expect(store.credentials(secret)).toBeUndefined();
  await emu.control('POST', `/accounts/${OTHER}/keys`, { name: 'later', scopes: [], secret });
  const me = await emu.api('GET', '/v1/keys/me', { secret });
  expect([me.status, me.json.name]).toEqual([200, 'later']);
  // Written by any statement, not only the control API: deleted, it is unknown again.
  store.db.prepare('DELETE FROM api_keys WHERE name = ?').run('later');
  expect((await emu.api('GET', '/v1/keys/me', { secret })).status).toBe(401);
});
