/**
 * What a run of any registered kind leaves (DESIGN.md section 7, "The run engine"; API document
 * section 1: "a finished run exposes a downloadable archive and a per-file listing"): files,
 * logs, the archive and its digest, and determinism across two emulators.
 */
import { describe, expect, test } from 'vitest';
import { expectApiError, expectOk } from '../api/support.js';
import { extractArchive, sha256 } from '../runtime/support.js';
import { END, KINDS, kindWorld, T0, withOutcomes } from './support.js';

interface FileItem {
  object: string;
  path: string;
  bytes: number;
  sha256: string;
}

describe.each(KINDS)('%s', (_name, registered) => {
  test("files answer 409 with the kind's not-ready code until it succeeded, then pages by path", async () => {
    const w = kindWorld(registered);
    const notReady = async (runId: string) => {
      expectApiError(await w.emu.api('GET', w.path('files', runId)), 409, w.routes.notReadyCode);
      expectApiError(await w.emu.api('GET', w.path('archive', runId)), 409, 'run_not_ready');
    };
    // One run at a time: a kind may allow one active run per resource.
    const failed = await w.create(withOutcomes(w.body, [{ fail: 'interrupted' }]));
    await w.advance(END);
    await notReady(failed.id);
    const { id } = await w.create();
    await notReady(id);
    await w.untilProcessing(id);
    await notReady(id);
    await w.advance(END);

    const page = async (query: string) => {
      const res = await w.emu.api('GET', `${w.path('files', id)}${query}`);
      expectOk(res, 200);
      return res.json;
    };
    const all = await page('?limit=1000');
    expect(all).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    const paths = all.data.map((f: FileItem) => f.path);
    expect(paths.length).toBeGreaterThan(1);
    expect(paths).toEqual(
      [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    for (const f of all.data) expect(f.object).toBe(w.routes.objects.file);
    const first = await page('?limit=1');
    expect(first).toMatchObject({ data: [all.data[0]], has_more: true, next_cursor: paths[0] });
    const rest = await page(`?limit=1000&after=${encodeURIComponent(paths[0])}`);
    expect(rest).toMatchObject({ data: all.data.slice(1), has_more: false, next_cursor: null });
  });

  test('logs answer the last `limit` lines, oldest first, from the queued line on', async () => {
    const w = kindWorld(registered);
    const { id } = await w.create();
    const logs = async (query = '?limit=5000') => {
      const res = await w.emu.api('GET', `${w.path('logs', id)}${query}`);
      expectOk(res, 200);
      expect(Object.keys(res.json)).toEqual(['id', 'object', 'lines']);
      expect(res.json).toMatchObject({ id, object: w.routes.objects.logs });
      return res.json.lines as string[];
    };
    const queued = await logs();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatch(new RegExp(`^${T0} attempt 1 queued`));
    await w.advance(END);
    const lines = await logs();
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toBe(queued[0]);
    const times = lines.map((l) => l.slice(0, T0.length));
    expect(times).toEqual([...times].sort());
    expect(await logs('?limit=2')).toEqual(lines.slice(-2));
    expectApiError(
      await w.emu.api('GET', `${w.path('logs', id)}?limit=0`),
      400,
      'parameter_invalid',
      'limit',
    );
  });

  test('the archive is served with its length and digest, and extracts to <id>/ as files lists it', async () => {
    const w = kindWorld(registered);
    const { id } = await w.create();
    await w.advance(END);
    const { download } = await w.get(id);
    const res = await w.archive(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-length')).toBe(String(res.bytes.length));
    expect(res.headers.get('etag')).toBe(`"${download.sha256}"`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${id}.tar.gz"`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(sha256(res.bytes)).toBe(download.sha256);
    expect(res.bytes.length).toBe(download.bytes);

    const listing = (await w.emu.api('GET', `${w.path('files', id)}?limit=1000`)).json.data;
    const extracted = extractArchive(res.bytes);
    expect([...extracted.keys()]).toEqual(listing.map((f: FileItem) => `${id}/${f.path}`));
    for (const f of listing as FileItem[]) {
      const content = extracted.get(`${id}/${f.path}`)!;
      expect({ bytes: content.length, sha256: sha256(content) }).toEqual({
        bytes: f.bytes,
        sha256: f.sha256,
      });
    }
  });

  test('two emulators with the same seed, given the same calls, answer byte-identical bodies and archives', async () => {
    const play = async () => {
      const w = kindWorld(registered, { seed: '7' });
      const failed = await w.create(withOutcomes(w.body, [{ fail: 'interrupted' }]));
      await w.advance(END);
      const run = await w.create({ ...w.body, label: 'same' });
      await w.advance(1);
      const texts = [(await w.emu.api('GET', w.path('get', run.id))).text];
      await w.advance(END);
      for (const path of [
        w.path('get', run.id),
        w.path('get', failed.id),
        w.path('list'),
        w.path('files', run.id),
        `${w.path('logs', run.id)}?limit=5000`,
        `${w.path('logs', failed.id)}?limit=5000`,
      ])
        texts.push((await w.emu.api('GET', path)).text);
      return { texts, archive: (await w.archive(run.id)).bytes };
    };
    const [a, b] = [await play(), await play()];
    expect(b.texts).toEqual(a.texts);
    expect(a.archive.length).toBeGreaterThan(0);
    expect(Buffer.compare(a.archive, b.archive)).toBe(0);
  });
});
