/**
 * `capYoungGeneration` (src/young-generation.ts) sets a V8 flag in a running process, which works
 * only because V8 reads it each time it grows the young generation: checked here on whichever
 * Node runs the tests (CI runs them on 20, 22 and 24), in child processes that churn memory.
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { childJson } from './child-json.js';

const MODULE = fileURLToPath(new URL('../src/young-generation.ts', import.meta.url));

/** The young generation's size in MB after a churn, in a child started with `args`. */
function youngAfterChurn(cap: boolean, args: string[] = []): { mb: number; capped: boolean } {
  const script = `
    import v8 from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(MODULE)};
    const capped = ${cap} ? capYoungGeneration(process.execArgv, process.env.NODE_OPTIONS) : false;
    let keep = [];
    for (let i = 0; i < 3e6; i++) {
      const o = { a: i, b: 'x' + i, c: [i, i] };
      if (i % 50 === 0) keep.push(o);
      if (keep.length > 20000) keep = [];
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(JSON.stringify({ mb: space.space_size / 1048576, capped }));`;
  return childJson(script, args);
}

test('the young generation stays at its starting size once capped, and grows without', () => {
  const capped = youngAfterChurn(true);
  const free = youngAfterChurn(false);
  expect(capped.capped).toBe(true);
  expect(capped.mb).toBeLessThanOrEqual(8);
  expect(free.mb).toBeGreaterThan(capped.mb);
});

test('a size the user chose on the command line is left alone', () => {
  const chosen = youngAfterChurn(true, ['--max-semi-space-size=2']);
  expect(chosen.capped).toBe(false);
});
