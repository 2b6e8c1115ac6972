/**
 * Snapshots are bounded (issue 36): `--snapshot-limit` snapshots and `--snapshot-space` bytes of
 * copies. Past either, a save or an upload answers 400 naming the limit, and nothing is kept of
 * it; deleting snapshots gives their space back, counted as the listing shows it.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../../../test/helpers.js';

type Emu = ReturnType<typeof testEmulator>;
const ctl = (emu: Emu, method: string, path: string, body?: unknown) =>
  emu.api(method, `/_control${path}`, { secret: null, body });
const save = (emu: Emu, body: object) => ctl(emu, 'POST', '/snapshots', body);

/** What `GET /_control/snapshots` answers, as far as these tests read it. */
interface Listing {
  data: { name: string; stored_bytes: number }[];
  stored_bytes: number;
  limits: { snapshots: number; stored_bytes: number };
}
const listing = async (emu: Emu): Promise<Listing> => emu.control('GET', '/snapshots');

test('past --snapshot-limit a new name answers 400; a taken name, or one after a delete, saves', async () => {
  const emu = testEmulator({ snapshotLimit: 2 });
  expect((await save(emu, { name: 'one' })).status).toBe(201);
  expect((await save(emu, { name: 'two', account: DEFAULT_ACCOUNT })).status).toBe(201);
  const over = expectError(await save(emu, { name: 'three' }), 400, 'parameter_invalid', 'name');
  expect(over.message).toBe(
    'This emulator keeps at most 2 snapshots (--snapshot-limit): delete one (DELETE /_control/snapshots/{name}), or save under a name already taken.',
  );
  const file = (await ctl(emu, 'GET', '/snapshots/one/download')).json;
  const upload = await save(emu, { name: 'three', snapshot: file });
  expectError(upload, 400, 'parameter_invalid', 'name');
  expect((await save(emu, { name: 'one' })).status).toBe(201);
  await ctl(emu, 'DELETE', '/snapshots/two');
  expect((await save(emu, { name: 'three', snapshot: file })).status).toBe(201);
  const names = (await emu.control('GET', '/snapshots')).data.map((s: { name: string }) => s.name);
  expect(names).toEqual(['one', 'three']);
  emu.emulator.close();
});

test('past --snapshot-space a save answers 400 and keeps nothing; deletes give the space back', async () => {
  const emu = testEmulator({ snapshotSpaceBytes: 1024 * 1024 });
  const listed = () => listing(emu);
  for (const name of ['a', 'b', 'c']) expect((await save(emu, { name })).status).toBe(201);
  const full = await listed();
  expect(full.stored_bytes).toBeLessThanOrEqual(1024 * 1024);
  expect(full.limits).toEqual({ snapshots: 100, stored_bytes: 1024 * 1024 });
  // A whole world does not fit in what is left: refused before it is copied.
  const world = expectError(await save(emu, { name: 'd' }), 400, 'parameter_invalid', 'name');
  expect(world.message).toMatch(
    /^The snapshots take 0\.\d MiB of the 1 MiB they may take together \(--snapshot-space\), and this one takes about 0\.\d MiB: delete some/,
  );
  // One account's copy is made, found too large, and taken back with its transaction.
  const account = await save(emu, { name: 'e', account: DEFAULT_ACCOUNT });
  expectError(account, 400, 'parameter_invalid', 'name');
  expect((await listed()).stored_bytes).toBe(full.stored_bytes);
  expect((await listed()).data.map((s) => s.name)).toEqual(['a', 'b', 'c']);
  for (const name of ['a', 'b', 'c']) await ctl(emu, 'DELETE', `/snapshots/${name}`);
  const emptied = await listed();
  expect(emptied.stored_bytes).toBeLessThan(full.data[0]!.stored_bytes);
  for (const name of ['d', 'e', 'f']) expect((await save(emu, { name })).status).toBe(201);
  emu.emulator.close();
});

test('a snapshot deleted while it downloads: the file comes whole, then its space is given back', async () => {
  const emu = testEmulator();
  for (let i = 0; i < 30; i++)
    await emu.api('POST', '/v1/evaluations', { body: { spec: { path: 'a.yaml', name: `n${i}` } } });
  await save(emu, { name: 'base' });
  const before = (await listing(emu)).stored_bytes;
  const download = await emu.app.request('/_control/snapshots/base/download');
  expect((await ctl(emu, 'DELETE', '/snapshots/base')).status).toBe(200);
  const text = await download.text();
  const file = JSON.parse(text);
  expect(file.world.tables.runs.rows).toHaveLength(30);
  expect(createHash('sha256').update(JSON.stringify(file.world)).digest('hex')).toBe(file.sha256);
  const after = await listing(emu);
  expect(after.data).toEqual([]);
  expect(after.stored_bytes).toBeLessThan(before);
  // The file loads back as it was.
  expect((await save(emu, { name: 'back', snapshot: file })).json.counts.runs).toBe(30);
  emu.emulator.close();
});

test("the journal's entries a snapshot keeps count in its stored_bytes, and come back whole", async () => {
  const emu = testEmulator();
  await save(emu, { name: 'few' });
  for (let i = 0; i < 400; i++) await emu.api('GET', '/v1/keys/me');
  await save(emu, { name: 'many' });
  const [few, many] = (await listing(emu)).data;
  // keys/me writes no row: what the second copy takes more is its 400 entries' text.
  expect(many!.stored_bytes - few!.stored_bytes).toBeGreaterThan(400 * 100);
  const kept = (await ctl(emu, 'GET', '/snapshots/many/download')).json.world.state.journal;
  expect(kept.length).toBeGreaterThanOrEqual(400);
  await ctl(emu, 'DELETE', '/requests');
  expect((await ctl(emu, 'POST', '/snapshots/many/restore')).status).toBe(200);
  const { data } = await emu.control('GET', '/requests?order=oldest&limit=1000');
  expect(data.map((e: { request_id: string }) => e.request_id)).toEqual(
    kept.map((e: { request_id: string }) => e.request_id),
  );
  emu.emulator.close();
});
