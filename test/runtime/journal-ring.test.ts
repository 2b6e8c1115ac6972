/**
 * The journal's ring (runtime/journal.ts) keeps entries as columns and their id and path in a
 * byte arena. Whatever it holds is the newest entries recorded, oldest first, each exactly as
 * recorded; it holds up to its capacity when paths are of ordinary length, and fewer only when
 * long paths fill the arena.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { JournalEntry } from '../../src/domain/records.js';
import { Journal } from '../../src/runtime/journal.js';

const SHARED = ['GET', 'POST', '/v1/keys/me', 'getCurrentKey', 'acct_1', 'key_1'];

const entry = (path: fc.Arbitrary<string>) =>
  fc.record({
    request_id: fc.stringMatching(/^req_[0-9A-Z]{26}$/),
    method: fc.constantFrom('GET', 'POST', 'HEAD'),
    path,
    route: fc.option(fc.constantFrom(...SHARED)),
    operation: fc.option(fc.constantFrom(...SHARED)),
    status: fc.option(fc.integer({ min: 100, max: 599 })),
    code: fc.option(fc.constantFrom('resource_not_found', 'rate_limit_exceeded')),
    account_id: fc.option(fc.constant('acct_1')),
    key_id: fc.option(fc.constant('key_1')),
    fault_id: fc.option(fc.constantFrom('X-Emulator-Fault', 'flt_1')),
    idempotent_replayed: fc.boolean(),
    at_ms: fc.integer({ min: 0, max: 2 ** 45 }),
    wall_ms: fc.integer({ min: 0, max: 2 ** 45 }),
    duration_ms: fc.double({ min: 0, max: 1e6, noNaN: true }),
  }) as fc.Arbitrary<JournalEntry>;

const anyPath = fc.oneof(
  fc.string({ maxLength: 80, unit: 'grapheme' }).map((s) => `/v1/${s}`),
  fc.string({ minLength: 1000, maxLength: 2100 }).map((s) => `/v1/${s}`),
);

test('the ring holds the newest entries recorded, each as recorded, however long their paths', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.array(entry(anyPath), { maxLength: 120 }),
      (capacity, entries) => {
        const journal = new Journal(capacity);
        for (const e of entries) journal.record(e);
        const held = [...journal.entries()];
        expect(held.length).toBeLessThanOrEqual(Math.min(capacity, entries.length));
        expect(held).toEqual(entries.slice(entries.length - held.length));
        expect([...journal.newest()]).toEqual([...held].reverse());
        expect(journal.size).toBe(held.length);
      },
    ),
    { numRuns: 300 },
  );
});

test('with paths of ordinary length the ring holds exactly its capacity', () => {
  const ordinary = fc.stringMatching(/^\/v1\/[a-z_]{1,20}\/[a-z]{4}_[0-9A-Z]{26}$/);
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3000 }),
      fc.array(entry(ordinary), { minLength: 1, maxLength: 40 }),
      (capacity, sample) => {
        const journal = new Journal(capacity);
        const total = capacity + 17;
        for (let i = 0; i < total; i++) journal.record(sample[i % sample.length]!);
        expect(journal.size).toBe(capacity);
        const newest = [...journal.newest()][0];
        expect(newest).toEqual(sample[(total - 1) % sample.length]);
      },
    ),
    { numRuns: 50 },
  );
});

test('removing entries keeps the others in order, and the ring goes on from them', () => {
  fc.assert(
    fc.property(
      fc.array(entry(anyPath), { maxLength: 60 }),
      fc.array(entry(anyPath), { maxLength: 20 }),
      (before, after) => {
        const journal = new Journal(25);
        for (const e of before) journal.record(e);
        const kept = [...journal.entries()].filter((e) => e.method !== 'POST');
        const removed = journal.size - kept.length;
        expect(journal.remove({ method: 'POST' })).toBe(removed);
        expect([...journal.entries()]).toEqual(kept);
        for (const e of after) journal.record(e);
        const held = [...journal.entries()];
        const all = [...kept, ...after];
        expect(held).toEqual(all.slice(all.length - held.length));
      },
    ),
    { numRuns: 200 },
  );
});
