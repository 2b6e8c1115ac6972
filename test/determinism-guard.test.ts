import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

/** STYLE.md rule 9: time and randomness come only from the clock, id and PRNG modules. */
const ALLOWED = new Set(['src/runtime/clock.ts', 'src/ids.ts', 'src/prng.ts']);
const FORBIDDEN = /Date\.now\(|Math\.random\(|randomUUID\(|new Date\(\)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('no module outside the clock, id and PRNG modules reads the wall clock or Math.random', () => {
  const offenders = sources('src')
    .filter((file) => !ALLOWED.has(file))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
        .filter(
          ({ text }) => FORBIDDEN.test(text) && !text.startsWith('//') && !text.startsWith('*'),
        ),
    );
  expect(offenders).toEqual([]);
});
