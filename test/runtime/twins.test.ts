/**
 * Twins built on the virtual clock (API document sections 3.2 and 4.6; DESIGN.md section 5: a
 * twin seeded without a status is queued 1 s, then processing 4 s, then succeeded).
 */
import { expect, test } from 'vitest';
import { DEFAULT_ACCOUNT, expectError, NO_TWINS_ACCOUNT } from '../helpers.js';
import { at, HEX64, runtime } from './support.js';

const TWIN_ID = /^twin_[0-9A-HJKMNP-TV-Z]{26}$/;

async function buildTwin(rt: ReturnType<typeof runtime>, body: Record<string, unknown> = {}) {
  return rt.emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/twins`, body);
}

test('a twin built on the clock answers 409 twin_not_ready until 5 s have passed, then lists its files', async () => {
  const rt = runtime();
  const twin = await buildTwin(rt);
  expect(twin).toEqual({
    id: expect.stringMatching(TWIN_ID),
    object: 'twin',
    status: 'queued',
    file_count: 3,
    created_at: at(0),
  });
  const files = `/v1/twins/${twin.id}/files`;

  const transitions: unknown[] = [];
  for (const step of [0, 0.999, 0.001, 3.999]) {
    transitions.push(...(await rt.advance(step)).transitions);
    expectError(await rt.call('GET', files), 409, 'twin_not_ready');
  }
  const last = await rt.advance(0.001);
  transitions.push(...last.transitions);
  expect(last.now).toBe(at(5));
  // On the run engine each transition names the phase it enters.
  expect(transitions).toEqual([
    { at: at(1), resource: twin.id, from: 'queued', to: 'processing', phase: 'extracting' },
    { at: at(2), resource: twin.id, from: 'processing', to: 'processing', phase: 'reconstructing' },
    { at: at(3.5), resource: twin.id, from: 'processing', to: 'processing', phase: 'validating' },
    { at: at(4.5), resource: twin.id, from: 'processing', to: 'processing', phase: 'packaging' },
    { at: at(5), resource: twin.id, from: 'processing', to: 'succeeded', phase: 'packaging' },
  ]);

  const res = await rt.call('GET', files);
  expect(res.status).toBe(200);
  expect(res.json).toEqual({
    object: 'list',
    data: [0, 1, 2].map((i) => ({
      path: `scene/part_0000${i}.usd`,
      bytes: expect.any(Number),
      sha256: expect.stringMatching(HEX64),
      object: 'twin_file',
    })),
    has_more: false,
    next_cursor: null,
  });
  for (const f of res.json.data) expect(f.bytes).toBeGreaterThan(0);
});

test("a twin moves on its own account's clock only", async () => {
  const rt = runtime();
  const twin = await buildTwin(rt);
  // Advancing another account does nothing to this twin.
  await rt.emu.control('POST', `/accounts/${NO_TWINS_ACCOUNT}/clock/advance`, { seconds: 60 });
  expectError(await rt.call('GET', `/v1/twins/${twin.id}/files`), 409, 'twin_not_ready');
  await rt.advance(5);
  expect((await rt.call('GET', `/v1/twins/${twin.id}/files`)).status).toBe(200);
});

test('a twin built on the clock with given files lists exactly those once it has succeeded', async () => {
  const rt = runtime();
  const files = [
    { path: 'meshes/b.obj', bytes: 20, sha256: 'b'.repeat(64) },
    { path: 'meshes/a.obj', bytes: 10, sha256: 'a'.repeat(64) },
  ];
  const twin = await buildTwin(rt, { files });
  expect(twin).toMatchObject({ status: 'queued', file_count: 2 });
  expectError(await rt.call('GET', `/v1/twins/${twin.id}/files`), 409, 'twin_not_ready');
  await rt.advance(5);
  const res = await rt.call('GET', `/v1/twins/${twin.id}/files`);
  expect(res.status).toBe(200);
  expect(res.json.data).toEqual([files[1], files[0]].map((f) => ({ ...f, object: 'twin_file' })));
});

test('a twin built on the clock with no files lists none once it has succeeded', async () => {
  const rt = runtime();
  const twin = await buildTwin(rt, { files: [] });
  await rt.advance(5);
  const res = await rt.call('GET', `/v1/twins/${twin.id}/files`);
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ data: [], has_more: false });
});
