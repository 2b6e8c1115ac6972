import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testEmulator } from '../helpers.js';

const SPEC = { path: 'specs/pick.yaml', name: 'pick' };

describe('the default in-memory database', () => {
  it('lives in memory, its rollback journal too: no file beside it', async () => {
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
    const newest = async () => (await api('GET', '/v1/evaluations?limit=1')).json.data[0]?.id;
    // The 1 GiB ceiling, brought down to the pages in use.
    const ceiling = db.pragma('max_page_count', { simple: true }) as number;
    expect(ceiling * (db.pragma('page_size', { simple: true }) as number)).toBe(1024 ** 3);
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    let last = await newest();
    let res = await api('POST', '/v1/evaluations', { body: { spec: SPEC } });
    for (let i = 0; res.status === 201 && i < 500; i++) {
      last = res.json.id;
      res = await api('POST', '/v1/evaluations', { body: { spec: SPEC } });
    }
    expect(res.status).toBe(500);
    expect(res.json.error).toMatchObject({
      type: 'api_error',
      code: 'api_error',
      message:
        "The emulator's in-memory database is full (1 GiB). Reset the world (POST /_control/reset) or start the emulator with --db FILE.",
    });
    // The newest run is the last one created: the failed write left no run behind.
    expect(await newest()).toBe(last);
    db.pragma(`max_page_count = ${ceiling}`);
    const next = await api('POST', '/v1/evaluations', { body: { spec: SPEC } });
    expect(next.status).toBe(201);
    expect(await newest()).toBe(next.json.id);
    emulator.close();
  });
});
