import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

/** STYLE.md rule 9: time and randomness come only from the clock, id and PRNG modules. */
const ALLOWED = new Set(['src/core/clock.ts', 'src/core/ids.ts', 'src/core/prng.ts']);
const FORBIDDEN = /Date\.now\(|Math\.random\(|randomUUID\(|new Date\(\)/;

/**
 * Wall-clock reads and wall-clock timers (`wallNow`, `setTimeout`, `setInterval`,
 * `performance.now`, `process.hrtime`) are allowed only where real time is the point, each named
 * here with its reason. Anything else must take its time from an account's virtual clock.
 */
const WALL_TIME_ALLOWED: Record<string, string> = {
  'src/core/clock.ts': 'the clock module itself: realtime and scaled clocks follow the wall',
  'src/core/accounts/clock-registry.ts': 'builds the clocks with the wall source they follow',
  'src/emulator.ts': 'wires the wall source into the clocks, and notes the start for uptime',
  'src/world/control-world.ts': '/_control/health reports uptime in wall seconds',
  'src/areas/requests/journal-middleware.ts': "the journal's wall_at and duration_ms are wall time",
  'src/areas/faults/strike.ts':
    'a delay_ms or hang_ms fault holds the call in wall time (README: Limitations)',
  'src/http/node-server.ts': 'lingering close of a connection after an early answer',
  'src/areas/requests/journal-store.ts': 'write-behind of journal batches to a --db file',
  'src/areas/webhooks/deliveries.ts':
    "a realtime or scaled clock reaches a retry's virtual instant after a wall-time wait",
  'src/areas/webhooks/attempt.ts':
    'an attempt goes to a real receiver: its wall start, duration and webhook-timestamp are wall time',
  'src/main.ts': 'the shutdown grace period',
  'src/engine/sliced-settle.ts':
    "a settle window's size follows the wall time the windows before it took (results do not depend on windows)",
  'src/engine/worker-pool.ts':
    'an idle settle worker thread ends after a wall-time while, giving its memory back',
  'src/heap.ts': 'the idle collection waits for ten quiet wall-clock seconds; it answers nothing',
  'src/areas/snapshots/snapshots.ts':
    "a snapshot's created_at says when it was saved, in wall time",
  'src/areas/snapshots/control-snapshots.ts':
    "Server-Timing reports a restore's wall duration (the bench's figure)",
  'src/tools/verify/target-client.ts':
    'verify paces its requests to a real service (--rps) and waits for its runs (--max-wait) in wall time',
  'src/tools/verify/proxy.ts':
    "a cassette records each exchange's wall time, which drift replays as clock gaps",
  'src/areas/bundles/recorder.ts':
    "a bundle's mark says when it was set, in wall time (shown to the reader, never replayed)",
  'src/tools/replay/attempt-gate.ts':
    'a replay waits at most 30 wall seconds for the webhook attempts a recorded call came after',
};
const WALL_TIME = /\bwallNow\b|\bsetTimeout\(|\bsetInterval\(|performance\.now\(|process\.hrtime/;

/**
 * The product's files. An area's tests beside it (`*.test.ts`, `*.test-support.ts`) are not: they
 * wait on real servers as the tests under test/ do, and nothing they read reaches an answer.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !/\.test(?:-support)?\.ts$/.test(path) ? [path] : [];
  });
}

/** The code lines of every source file matching `pattern`, comments skipped. */
function offending(pattern: RegExp, allowed: (file: string) => boolean) {
  return sources('src')
    .filter((file) => !allowed(file))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
        .filter(
          ({ text }) => pattern.test(text) && !text.startsWith('//') && !text.startsWith('*'),
        ),
    );
}

test('no module outside the clock, id and PRNG modules reads the wall clock or Math.random', () => {
  expect(offending(FORBIDDEN, (f) => ALLOWED.has(f))).toEqual([]);
});

test('wall time (wallNow, timers) is read only in the places named with their reason', () => {
  expect(offending(WALL_TIME, (f) => f in WALL_TIME_ALLOWED)).toEqual([]);
});
