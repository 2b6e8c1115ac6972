/**
 * One page, bounded (issue 27 item 7): a list page ends early, with `has_more`, before it passes
 * about 1 MiB of JSON, and events about runs with large requests show their strings cut, so a page
 * of 100 events stays small whatever the specs hold. `GET` of the run shows it whole.
 */
import { expect, test } from 'vitest';
import { PAGE_BYTES } from '../../src/core/paging.js';
import { EVENT_REQUEST_CHARS } from '../../src/engine/timeline/event-view.js';
import { DEFAULT_ACCOUNT, testEmulator } from '../helpers.js';

/** A spec of about 300 KB: within the 1 MiB body limit, far over the events' bound. */
const bigSpec = (i: number) => ({
  path: `specs/${i}.yaml`,
  name: `big-${i}`,
  text: 'x'.repeat(300_000),
});

test('a page of large runs ends before 1 MiB with has_more, and the next page goes on from it', async () => {
  const emu = testEmulator();
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const created = await emu.api('POST', '/v1/evaluations', { body: { spec: bigSpec(i) } });
    expect(created.status).toBe(201);
    ids.push(created.json.id);
  }
  const first = await emu.api('GET', '/v1/evaluations?limit=100');
  expect(first.text.length).toBeLessThan(PAGE_BYTES + 400_000);
  expect(first.json.has_more).toBe(true);
  expect(first.json.data.length).toBeGreaterThan(0);
  expect(first.json.data.length).toBeLessThan(8);
  expect(first.json.next_cursor).toBe(first.json.data.at(-1).id);
  const seen = [...first.json.data];
  let cursor = first.json.next_cursor;
  while (cursor) {
    const page = await emu.api('GET', `/v1/evaluations?limit=100&after=${cursor}`);
    seen.push(...page.json.data);
    cursor = page.json.has_more ? page.json.next_cursor : null;
  }
  expect(seen.map((r) => r.id)).toEqual([...ids].reverse());
});

test("events cut the long strings of a large run's request; GET of the run shows it whole", async () => {
  const emu = testEmulator();
  const { json: run } = await emu.api('POST', '/v1/evaluations', { body: { spec: bigSpec(0) } });
  await emu.control('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 60 });
  const events = await emu.api('GET', `/v1/events?resource=${run.id}&limit=100`);
  expect(events.json.data.map((e: { type: string }) => e.type)).toContain('evaluation.succeeded');
  expect(events.text.length).toBeLessThan(events.json.data.length * 2 * EVENT_REQUEST_CHARS);
  for (const e of events.json.data) {
    expect(e.data.object.spec.name).toBe('big-0');
    expect(e.data.object.spec.text).toMatch(/\.\.\.\[truncated 298976 chars\]$/);
  }
  const got = await emu.api('GET', `/v1/evaluations/${run.id}`);
  expect(got.json.spec.text).toHaveLength(300_000);
});

test('events of ordinary runs carry their request as it was sent', async () => {
  const emu = testEmulator();
  const spec = { path: 'specs/a.yaml', name: 'a', note: 'y'.repeat(2000) };
  const { json: run } = await emu.api('POST', '/v1/evaluations', { body: { spec } });
  const events = await emu.api('GET', `/v1/events?resource=${run.id}`);
  expect(events.json.data[0].data.object.spec).toEqual(spec);
});
