/**
 * The journal's ring (runtime/journal.ts): whatever it holds is the newest entries recorded, up to
 * its capacity, oldest first, each exactly as recorded; filters and removal keep that order.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { Journal } from './journal.js';
import type { JournalEntry } from './journal-entry.js';

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
    idempotency_key: fc.option(fc.string({ maxLength: 40 })),
    body_digest: fc.option(fc.stringMatching(/^[0-9a-f]{16}$/)),
    retry_after: fc.option(fc.integer({ min: 0, max: 3600 })),
    fault_after: fc.boolean(),
    work_status: fc.option(fc.integer({ min: 100, max: 599 })),
    hang_ms: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true })),
    client_closed: fc.boolean(),
    resource_id: fc.option(fc.stringMatching(/^eval_[0-9A-Z]{26}$/)),
  }) satisfies fc.Arbitrary<JournalEntry>;

const anyPath = fc.oneof(
  fc.string({ maxLength: 80, unit: 'grapheme' }).map((s) => `/v1/${s}`),
  fc.string({ minLength: 1000, maxLength: 2100 }).map((s) => `/v1/${s}`),
);

test('the ring holds the newest entries recorded, up to its capacity, each as recorded', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.array(entry(anyPath), { maxLength: 120 }),
      (capacity, entries) => {
        const journal = new Journal(capacity);
        for (const e of entries) journal.record(e);
        const held = [...journal.entries()];
        expect(held.length).toBe(Math.min(capacity, entries.length));
        expect(held).toEqual(entries.slice(entries.length - held.length));
        expect([...journal.newest()]).toEqual([...held].reverse());
        expect(journal.size).toBe(held.length);
      },
    ),
    { numRuns: 300 },
  );
});

test('a full ring drops its oldest entry for each new one', () => {
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

test('a journal of capacity 0 keeps nothing', () => {
  fc.assert(
    fc.property(fc.array(entry(anyPath), { maxLength: 10 }), (entries) => {
      const journal = new Journal(0);
      for (const e of entries) journal.record(e);
      journal.restore(entries);
      expect(journal.size).toBe(0);
      expect([...journal.entries()]).toEqual([]);
    }),
    { numRuns: 20 },
  );
});

test('filters select the matching entries, oldest first', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.array(entry(anyPath), { maxLength: 80 }),
      (capacity, entries) => {
        const journal = new Journal(capacity);
        for (const e of entries) journal.record(e);
        const held = [...journal.entries()];
        const status = held[0]?.status ?? 404;
        expect(journal.filter({ method: 'GET', status })).toEqual(
          held.filter((e) => e.method === 'GET' && e.status === status),
        );
        expect(journal.filter({ account: 'acct_1', sinceMs: 2 ** 44 })).toEqual(
          held.filter((e) => e.account_id === 'acct_1' && e.at_ms >= 2 ** 44),
        );
        const page = journal.newestPage({ code: 'resource_not_found' }, undefined, 5);
        const newest = held.filter((e) => e.code === 'resource_not_found').reverse();
        expect(page.data).toEqual(newest.slice(0, 5));
        expect(page.hasMore).toBe(newest.length > 5);
      },
    ),
    { numRuns: 200 },
  );
});
