/**
 * Stored text packed with a preset dictionary (store/packed-text.ts, issue 12 item 4): a run's
 * state and an `Idempotency-Key` replay's body. Reading gives back the very text or bytes
 * written; rows written before packing read as they are; the dictionaries never change (a row is
 * read only with the dictionary it was packed with); and each kind's succeeded state packs small.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { REGISTERED_KINDS } from '../../src/kinds/index.js';
import { DICTIONARY_TEXT, STATE_DICTIONARY } from '../../src/store/dictionaries.js';
import { isPacked, packText, unpackBytes, unpackText } from '../../src/store/packed-text.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { KIND_BODIES } from '../runtime/support.js';

const IDS = [0, ...Object.keys(DICTIONARY_TEXT).map(Number)];

test('the dictionaries are frozen: a packed row is read only with the bytes it was packed with', () => {
  const digests = Object.fromEntries(
    Object.entries(DICTIONARY_TEXT).map(([id, parts]) => [
      id,
      createHash('sha256').update(parts.join('')).digest('hex'),
    ]),
  );
  // Never edit one of these: add a dictionary under a new id and pack new rows with it.
  expect(digests).toEqual({
    1: '520fc3c6b2dab8b96f7262d197c87fbfad8a01a945cf86eda7dfbaa5ef9405b4',
    2: 'd8bb0037cb04763e030b6fc34bee678ae406fb4345ee8e32d74eef03230951c5',
    3: 'c76d5823444960554bb863e655e6f6be875348dd3bd41a40fc6bf12ee8d2268c',
    4: '8d9a6c6a735901c40e0a7c8fc4e89e4cdf4f142762828cde3c4470a93c16769c',
    5: '961dca41c20ef6280829ec8fb29324d030428f8eb1c7d20578de4f1c759ce706',
    6: '359921d7bfcf3c3af3f1ed0f9403f69ef54502c304e562f31318a2cfe2c0395f',
    16: 'e13b837adb0e8806b1750ea81a1efff318aeff1e5fd204729e45b8fa6221a524',
  });
});

test('any text or bytes read back as written, with every dictionary', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 3000 }),
      fc.constantFrom(...IDS),
      (text, id) => {
        const packed = packText(text, id);
        expect([packed[0], packed[1]]).toEqual([0, id]);
        expect(isPacked(packed)).toBe(true);
        expect(unpackText(packed)).toBe(text);
      },
    ),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000 }), fc.constantFrom(...IDS), (bytes, id) => {
      expect(unpackBytes(packText(bytes, id))).toEqual(Buffer.from(bytes));
    }),
    { numRuns: 300 },
  );
  // Lengths of one, two and three bytes in the header.
  for (const n of [0, 127, 128, 16_383, 16_384, 300_000]) {
    const text = 'é'.repeat(n / 2) + 'x'.repeat(n % 2);
    expect(unpackText(packText(text, 16))).toBe(text);
  }
});

test('what was stored before packing reads as it is; an unknown dictionary is an error, not garbage', () => {
  expect(unpackText('{"status":"queued"}')).toBe('{"status":"queued"}');
  const body = Buffer.from('{"id":"eval_1"}');
  expect(isPacked(body)).toBe(false);
  expect(unpackBytes(body)).toEqual(body);
  expect(unpackBytes(Buffer.alloc(0))).toEqual(Buffer.alloc(0));
  const packed = packText('x', 1);
  packed[1] = 200;
  expect(() => unpackText(packed)).toThrow('packed text: no dictionary 200');
});

test("every kind's succeeded state packs to under a quarter of its JSON; a moving state stays text", async () => {
  const emu = testEmulator();
  const ids: Record<string, string> = {};
  for (const { kind } of REGISTERED_KINDS) {
    expect(STATE_DICTIONARY[kind.name], `add a dictionary for ${kind.name}`).toBeDefined();
    const body = KIND_BODIES[kind.name];
    const run = await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/runs`, {
      kind: kind.name,
      ...body,
    });
    ids[kind.name] = run.id;
  }
  const { db } = emu.emulator.deps.store;
  const row = db.prepare<[string], { state: string | Buffer }>(
    'SELECT state FROM runs WHERE id = ?',
  );
  for (const [kind, id] of Object.entries(ids)) {
    const { state } = row.get(id)!;
    expect(typeof state, kind).toBe('string');
    expect(JSON.parse(state as string).status, kind).toBe('queued');
  }
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 86_400 });
  // Reading settles each run: its row then holds the succeeded state.
  for (const { kind } of REGISTERED_KINDS)
    await emu.api('GET', `/v1/${kind.collection}/${ids[kind.name]}`);
  for (const [kind, id] of Object.entries(ids)) {
    const state = row.get(id)!.state as Buffer;
    const text = unpackText(state);
    expect(JSON.parse(text).status, kind).toBe('succeeded');
    expect(state[1], kind).toBe(STATE_DICTIONARY[kind]);
    expect(state.length, `${kind}: ${state.length} of ${text.length}`).toBeLessThan(
      text.length / 4,
    );
  }
  emu.emulator.close();
});
