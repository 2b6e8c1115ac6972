import { readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { AREAS } from '../src/areas/index.js';

test('every folder of src/areas is an area that src/areas/index.ts lists, named as its folder', () => {
  const folders = readdirSync('src/areas', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  expect(AREAS.map((area) => area.name).sort()).toEqual(folders.sort());
});
