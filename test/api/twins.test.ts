/**
 * GET /v1/twins/{twin_id}/files (API document sections 2.6, 3.2 and 4.6; DESIGN.md section 3
 * "File listing page size", "Feature not enabled").
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';
import { digest, expectOk, file } from './support.js';

type Emu = ReturnType<typeof testEmulator>;

const FILES = [
  file('scene.usd', 4096),
  file('Textures/wood.png', 2048),
  file('meshes/table.obj', 512),
  file('Meshes/chair.obj', 256),
  file('meta.json', 64),
];
const SORTED = [
  'Meshes/chair.obj',
  'Textures/wood.png',
  'meshes/table.obj',
  'meta.json',
  'scene.usd',
];

const item = (path: string) => ({ ...FILES.find((f) => f.path === path)!, object: 'twin_file' });

async function seedTwin(emu: Emu, body: Record<string, unknown>, account = DEFAULT_ACCOUNT) {
  return emu.control('POST', `/accounts/${account}/twins`, body);
}

/** The stand-in files `generate_files` makes: see src/world/seed.ts. */
function generated(twinId: string, i: number) {
  const content = `#usda 1.0\n# twin ${twinId}, part ${i}\n`;
  return {
    path: `scene/part_${String(i).padStart(5, '0')}.usd`,
    bytes: Buffer.byteLength(content),
    sha256: digest(content),
    object: 'twin_file',
  };
}

describe('GET /v1/twins/{twin_id}/files', () => {
  test('lists every file of a succeeded twin sorted by path in byte order', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', files: FILES });
    expect(twin.id).toMatch(/^twin_[0-9A-HJKMNP-TV-Z]{26}$/);
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: SORTED.map(item),
      has_more: false,
      next_cursor: null,
    });
  });

  test('a twin seeded without files gets three generated ones', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded' });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({
      object: 'list',
      data: [0, 1, 2].map((i) => generated(twin.id, i)),
      has_more: false,
      next_cursor: null,
    });
  });

  test('a twin with no files answers an empty list', async () => {
    const emu = testEmulator();
    const twin = await seedTwin(emu, { status: 'succeeded', generate_files: 0 });
    const res = await emu.api('GET', `/v1/twins/${twin.id}/files`);
    expectOk(res, 200);
    expect(res.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });
});
