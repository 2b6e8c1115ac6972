/**
 * src/heap.ts. The idle collection: once after traffic, when a quiet second has passed, no
 * more often than its interval, and only when the heap grew; and V8's `gc` is reachable without
 * a command-line flag on the running Node (CI runs the tests on 20, 22 and 24), compacting.
 */
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { collectWhenIdle, exposedGc, QUIET_MS } from '../src/heap.js';
import { childJson } from './child-json.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup(heap = { bytes: 100 * 1024 * 1024 }, quietMs = 1000) {
  const server = new EventEmitter();
  const collect = vi.fn(() => {
    heap.bytes = 50 * 1024 * 1024;
  });
  const collector = collectWhenIdle(server, collect, () => heap.bytes, {
    quietMs,
    minIntervalMs: 10_000,
    minGrowthBytes: 8,
  });
  const traffic = (seconds: number) => {
    for (let s = 0; s < seconds * 10; s++) {
      server.emit('request');
      vi.advanceTimersByTime(100);
    }
  };
  return { server, collect, collector, heap, traffic };
}

test('collections after traffic stops, none while it goes on, none while it stays quiet', () => {
  const { collect, collector, heap, traffic } = setup();
  vi.advanceTimersByTime(30_000);
  expect(collect).not.toHaveBeenCalled();
  traffic(20);
  expect(collect).not.toHaveBeenCalled();
  heap.bytes = 200 * 1024 * 1024;
  vi.advanceTimersByTime(2000);
  // Two in a row: the second gives back the pages the first freed.
  expect(collect).toHaveBeenCalledTimes(2);
  vi.advanceTimersByTime(60_000);
  expect(collect).toHaveBeenCalledTimes(2);
  collector.stop();
});

test('short bursts are collected at most once per interval, and only when the heap grew', () => {
  const { collect, collector, heap, traffic } = setup();
  for (let burst = 0; burst < 6; burst++) {
    traffic(1);
    heap.bytes += 16 * 1024 * 1024;
    vi.advanceTimersByTime(2000);
  }
  // Six bursts three seconds apart: one idle collection (of two calls), then the next only once
  // 10 s have passed.
  expect(collect).toHaveBeenCalledTimes(4);
  // No growth since the last collection (which left 50 MB): nothing to gain.
  heap.bytes = 50 * 1024 * 1024;
  traffic(1);
  vi.advanceTimersByTime(20_000);
  expect(collect).toHaveBeenCalledTimes(4);
  collector.stop();
});

test('the quiet spell is counted in seconds: a pause shorter than it collects nothing', () => {
  const { collect, collector, heap, traffic } = setup({ bytes: 100 * 1024 * 1024 }, QUIET_MS);
  expect(QUIET_MS).toBe(10_000);
  traffic(20);
  heap.bytes = 200 * 1024 * 1024;
  // Pauses of 6 s between bursts, as a suite between its files or a bench between its servers.
  for (let pause = 0; pause < 4; pause++) {
    vi.advanceTimersByTime(6000);
    traffic(2);
  }
  expect(collect).not.toHaveBeenCalled();
  vi.advanceTimersByTime(QUIET_MS + 1000);
  expect(collect).toHaveBeenCalledTimes(2);
  collector.stop();
});

test('a stopped collector counts and collects nothing', () => {
  const { server, collect, collector } = setup();
  collector.stop();
  expect(server.listenerCount('request')).toBe(0);
  server.emit('request');
  vi.advanceTimersByTime(30_000);
  expect(collect).not.toHaveBeenCalled();
});

test("V8's collector is reachable in a process started without --expose-gc", () => {
  vi.useRealTimers();
  expect(typeof exposedGc()).toBe('function');
  // The process's own global does not get it.
  expect('gc' in globalThis && process.execArgv.every((a) => !a.includes('expose'))).toBe(false);
});

const HEAP = fileURLToPath(new URL('../src/heap.ts', import.meta.url));

/**
 * V8's old generation after a fragmenting churn (two thirds of 600,000 promoted objects dropped,
 * every third kept), in a child process: the space's size and its live bytes in MB, after two
 * collections by `exposedGc` or by V8's plain `gc`.
 */
function oldSpaceAfterFragmenting(compacting: boolean) {
  const script = `
    import v8 from 'node:v8';
    import vm from 'node:vm';
    import { exposedGc } from ${JSON.stringify(HEAP)};
    v8.setFlagsFromString('--expose-gc');
    const collect = ${compacting} ? exposedGc() : vm.runInNewContext('gc');
    const all = [];
    for (let i = 0; i < 600000; i++) all.push({ a: i, b: 'x' + i, c: [i] });
    collect();
    collect();
    const kept = all.filter((_, i) => i % 3 === 0);
    all.length = 0;
    collect();
    collect();
    const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space');
    console.log(JSON.stringify({ size: s.space_size / 1048576, used: s.space_used_size / 1048576, kept: kept.length }));`;
  return childJson<{ size: number; used: number }>(script);
}

test('the idle collection compacts: the old generation keeps no more pages than its live objects need', async () => {
  const compacted = await oldSpaceAfterFragmenting(true);
  const plain = await oldSpaceAfterFragmenting(false);
  expect(compacted.used).toBeGreaterThan(20);
  // About 27 MB live: compacted, the space is that and less than 2 MB more.
  expect(compacted.size - compacted.used).toBeLessThan(2);
  // V8's own collection leaves most of the emptied pages in place (77 MB on Node 20).
  expect(plain.size - plain.used).toBeGreaterThanOrEqual(compacted.size - compacted.used);
});

/** The young generation's size in MB after a churn, in a child started with `args`. */
function youngAfterChurn(cap: boolean, args: string[] = []) {
  const script = `
    import v8 from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(HEAP)};
    const capped = ${cap} ? capYoungGeneration(process.execArgv, process.env.NODE_OPTIONS) : false;
    let keep = [];
    for (let i = 0; i < 3e6; i++) {
      const o = { a: i, b: 'x' + i, c: [i, i] };
      if (i % 50 === 0) keep.push(o);
      if (keep.length > 20000) keep = [];
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(JSON.stringify({ mb: space.space_size / 1048576, capped }));`;
  return childJson<{ mb: number; capped: boolean }>(script, args);
}

test('the young generation stays at its starting size once capped, and grows without', async () => {
  const capped = await youngAfterChurn(true);
  const free = await youngAfterChurn(false);
  expect(capped.capped).toBe(true);
  expect(capped.mb).toBeLessThanOrEqual(8);
  expect(free.mb).toBeGreaterThan(capped.mb);
});

test('a size the user chose on the command line is left alone', async () => {
  const chosen = await youngAfterChurn(true, ['--max-semi-space-size=2']);
  expect(chosen.capped).toBe(false);
});

test('after an idle collection shrinks it, the young generation grows back to its cap, not past it', async () => {
  // Grown as the emulator's own code grows it while loading, then capped; quiet, collected until
  // V8 shrinks it (it does once allocation has been slow for a while: about 10 s on Node 20 and
  // 22, 2 s on 24); then traffic. Held at a growth factor of 1, it stayed shrunk, each call
  // costing up to twice the CPU.
  const script = `
    import { setTimeout as sleep } from 'node:timers/promises';
    import { capYoungGeneration, exposedGc, youngGenerationBytes } from ${JSON.stringify(HEAP)};
    let keep = [];
    const churn = (n) => {
      for (let i = 0; i < n; i++) {
        const o = { a: i, b: 'x' + i, c: [i, i] };
        if (i % 50 === 0) keep.push(o);
        if (keep.length > 20000) keep = [];
      }
    };
    churn(3e6);
    const cap = youngGenerationBytes();
    capYoungGeneration([], '');
    keep = [];
    const collect = exposedGc();
    for (let s = 0; s < 30 && youngGenerationBytes() >= cap; s++) {
      await sleep(1000);
      collect();
      collect();
    }
    const shrunk = youngGenerationBytes();
    for (let k = 0; k < 20; k++) {
      churn(3e5);
      await sleep(5);
    }
    console.log(JSON.stringify({ cap, shrunk, after: youngGenerationBytes() }));`;
  const { cap, shrunk, after } = await childJson<{ cap: number; shrunk: number; after: number }>(
    script,
  );
  expect(shrunk).toBeLessThan(cap);
  expect(after).toBe(cap);
}, 60_000);
