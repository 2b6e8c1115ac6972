/**
 * docs/inspector.md shows a screenshot of each view of the inspector, made by the browser tests
 * (test/inspector/): every picture it references exists and is a PNG, each view has one, and no
 * picture is left that it does not show.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const DOC = new URL('../docs/inspector.md', import.meta.url);
const IMAGES = new URL('../docs/images/', import.meta.url);
const VIEWS = ['requests', 'accounts', 'runs', 'faults', 'webhooks', 'coverage', 'world'];
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const shown = [...readFileSync(DOC, 'utf8').matchAll(/!\[[^\]]*\]\(images\/([^)]+)\)/g)].map(
  (m) => m[1]!,
);

test('every screenshot docs/inspector.md references exists and is a PNG', () => {
  expect(shown.length).toBeGreaterThan(0);
  for (const name of shown) {
    const bytes = readFileSync(new URL(name, IMAGES));
    expect(bytes.subarray(0, 8).equals(PNG), name).toBe(true);
  }
});

test('each view of the inspector has its screenshot, and none is left unshown', () => {
  expect(shown.sort()).toEqual(VIEWS.map((v) => `ui-${v}.png`).sort());
  const onDisk = readdirSync(IMAGES).filter((f) => f.startsWith('ui-'));
  expect(onDisk.sort()).toEqual(shown.sort());
});
