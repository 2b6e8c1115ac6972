import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testEmulator } from '../helpers.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };

describe('the default in-memory database', () => {
  it('lives in memory: a memdb image with its rollback journal in memory, no file beside it', async () => {
    const before = readdirSync('.').sort();
    const { emulator, api } = testEmulator();
    const { db } = emulator.deps.store;
    expect(db.memory).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    expect((await api('POST', '/v1/evaluations', { body: { spec: SPEC } })).status).toBe(201);
    expect(readdirSync('.').sort()).toEqual(before);
    emulator.close();
  });

  it('answers 500 api_error with what to do when full, and the failed write leaves nothing behind', async () => {
    const { emulator, api } = testEmulator();
    const { db } = emulator.deps.store;
    const listed = async () => (await api('GET', '/v1/evaluations?limit=100')).json.data.length;
    const runs = await listed();
    // The 1 GiB ceiling of the memdb image, brought down to the pages in use.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    let res = await api('POST', '/v1/evaluations', { body: { spec: SPEC } });
    for (let i = 0; res.status === 201 && i < 200; i++) {
      res = await api('POST', '/v1/evaluations', { body: { spec: SPEC } });
    }
    expect(res.status).toBe(500);
    expect(res.json.error).toMatchObject({
      type: 'api_error',
      code: 'api_error',
      message:
        "The emulator's in-memory database is full (1 GiB). Reset the world (POST /_control/reset) or start the emulator with --db FILE.",
    });
    const before = await listed();
    expect(before).toBeGreaterThanOrEqual(runs);
    db.pragma('max_page_count = 262144');
    expect((await api('POST', '/v1/evaluations', { body: { spec: SPEC } })).status).toBe(201);
    expect(await listed()).toBe(before + 1);
    emulator.close();
  });
});
