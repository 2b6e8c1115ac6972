/**
 * The README and the manual under docs/ point only at what the repository holds: every relative
 * Markdown link names a file or folder that exists (and its #anchor a heading of that file), and
 * every backticked repository path (`docs/api.md`, `src/core/errors.ts`, `test/kinds/`, `../x.md`,
 * any `*.md`) exists. Paths with a placeholder (`scenarios/<name>.json`, `src/...`) and paths inside an
 * archive or a built package (`dist/`, `episodes/0001.json`) are not repository paths and are
 * left alone. Fenced code blocks are skipped: they hold commands and outputs, not references.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { expect, test } from 'vitest';
import { docsOnDisk, ROOT } from './doc-files.js';
import { testEmulator } from './helpers.js';

const REPO_DIRS = [
  '.ci/',
  'docs/',
  'examples/',
  'fixtures/',
  'scenarios/',
  'scripts/',
  'src/',
  'test/',
];

/** The Markdown outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(path: string): Set<string> {
  const markdown = prose(readFileSync(join(ROOT, path), 'utf8'));
  return new Set([...markdown.matchAll(/^#+ (.*)$/gm)].map((m) => anchor(m[1]!)));
}

/** What a document points at that is not there: one line per dangling reference. */
function dangling(path: string): string[] {
  const text = prose(readFileSync(join(ROOT, path), 'utf8'));
  const problems: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue; // http:, https:, mailto:
    const [file, hash] = target!.split('#');
    const resolved = file === '' ? path : normalize(join(dirname(path), file!));
    if (!existsSync(join(ROOT, resolved))) problems.push(`link ${target}: no ${resolved}`);
    else if (hash && resolved.endsWith('.md') && !anchorsOf(resolved).has(hash)) {
      problems.push(`link ${target}: no heading #${hash} in ${resolved}`);
    }
  }
  for (const [, code] of text.matchAll(/`([^`\s]+)`/g)) {
    const isPath =
      code!.endsWith('.md') ||
      code!.startsWith('../') ||
      REPO_DIRS.some((d) => code!.startsWith(d));
    // A placeholder (`<name>`, `*`, `...`) or a bare extension (`.md`) names no one file.
    if (!isPath || /[<>{}*]|\.\.\.|^\.\w+$/.test(code!)) continue;
    const candidates = [code!, normalize(join(dirname(path), code!))];
    if (!candidates.some((c) => existsSync(join(ROOT, c))))
      problems.push(`path \`${code}\`: not found`);
  }
  // Files that exist only beside the repository, named in plain text too.
  for (const [name] of readFileSync(join(ROOT, path), 'utf8').matchAll(
    /DESIGN\.md|shared\/spec/g,
  )) {
    problems.push(`names ${name}, which is not in the repository`);
  }
  return problems;
}

test.each(['README.md', ...docsOnDisk()])('%s points only at files that exist', (path) => {
  expect(dangling(path)).toEqual([]);
});

test('the served documents and the /docs pages send no reader to a file outside the repository', async () => {
  const emulator = testEmulator();
  for (const path of ['/openapi.json', '/_control/openapi.json', '/docs', '/_control/docs']) {
    const body = await (await emulator.app.request(path)).text();
    expect(body, path).not.toMatch(/DESIGN\.md|shared\/spec/);
  }
});
