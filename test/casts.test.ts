import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

/**
 * Issue 37's typed seams, kept: handlers are typed by their routes, so no answer or input in
 * `src/` is forced through `as never`, and `as unknown as` (a claim the compiler cannot check at
 * all) stays rare. A cast that must stay goes in a narrow helper that says why.
 */
const MAX_UNKNOWN_CASTS = 3;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a line, without a comment line or a trailing `//` comment. */
function code(line: string): string {
  const text = line.trim();
  if (text.startsWith('//') || text.startsWith('*') || text.startsWith('/*')) return '';
  return text.replace(/\s\/\/.*$/, '');
}

/** `file:line` of every code line of `src/` with `cast`. */
function castsOf(cast: RegExp): string[] {
  return sources('src').flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (cast.test(code(line)) ? [`${file}:${i + 1}`] : [])),
  );
}

test('no `as never` in src/', () => {
  expect(castsOf(/\bas never\b/)).toEqual([]);
});

test(`at most ${MAX_UNKNOWN_CASTS} \`as unknown as\` in src/`, () => {
  const found = castsOf(/\bas unknown as\b/);
  expect(found.length, found.join('\n')).toBeLessThanOrEqual(MAX_UNKNOWN_CASTS);
});

test('the count skips comments and finds casts', () => {
  expect(code('  // an event was never accepted as never before')).toBe('');
  expect(code('   * it is as never before')).toBe('');
  expect(code('return x as never; // why')).toBe('return x as never;');
  expect(/\bas never\b/.test(code('  f(y as never);'))).toBe(true);
});
