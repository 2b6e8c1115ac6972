/**
 * The run engine's clock, over every registered kind (DESIGN.md section 7, "The run engine";
 * section 4 for the shared rules): each end state, cancel, resume, events, operations, usage.
 */
import { describe, expect, test } from 'vitest';
import { expectApiError, expectOk } from '../api/support.js';
import { BASE, END, HEX64, KINDS, type KindWorld, kindWorld, withOutcomes } from './support.js';

/** Cancel and resume of `id` answer 409: it is terminal and not resumable. */
async function expectTerminal(w: KindWorld, id: string) {
  expectApiError(await w.emu.api('POST', w.path('cancel', id)), 409, 'not_cancelable');
  expectApiError(await w.emu.api('POST', w.path('resume', id)), 409, 'not_resumable');
}

describe.each(KINDS)('%s', (_name, registered) => {
  test("the clock walks each of the kind's phases to succeeded, with a result and a download", async () => {
    const w = kindWorld(registered);
    const { id, tokens } = await w.create();
    const { transitions } = await w.advance(END);
    const last = w.kind.phases.at(-1);
    expect(transitions.map((t: { to: string; phase: string }) => `${t.to}:${t.phase}`)).toEqual([
      ...w.kind.phases.map((phase) => `processing:${phase}`),
      `succeeded:${last}`,
    ]);
    const run = await w.get(id);
    expect(run).toMatchObject({
      status: 'succeeded',
      phase: null,
      progress: 1,
      status_message: 'Succeeded',
      error: null,
      tokens: { charged: tokens.charged, refunded: 0 },
      started_at: transitions[0].at,
      completed_at: transitions.at(-1).at,
    });
    expect(run.result).toEqual(expect.any(Object));
    expect(run.download).toEqual({
      url: BASE + w.path('archive', id),
      requires_auth: true,
      expires_at: null,
      filename: `${id}.tar.gz`,
      bytes: expect.any(Number),
      sha256: expect.stringMatching(HEX64),
    });
    await expectTerminal(w, id);
    expect(await w.eventTypes(id)).toEqual(
      ['queued', 'processing', 'succeeded'].map((s) => `${w.kind.name}.${s}`),
    );
    const events = await w.emu.api('GET', `/v1/events?resource=${id}`);
    expect(events.json.data[0].data.object).toEqual(run);
  });

  test('an outcome plan fails it, refunds what it did not consume, and a resume runs it again to success', async () => {
    const w = kindWorld(registered);
    expect(w.kind.failureCodes).toContain('interrupted');
    const before = await w.balance();
    const created = await w.create(withOutcomes(w.body, [{ fail: 'interrupted' }]));
    const { id } = created;
    await w.advance(END);
    const failed = await w.get(id);
    expect(failed).toMatchObject({
      status: 'failed',
      result: null,
      download: null,
      error: { code: 'interrupted', message: expect.any(String), resumable: true },
    });
    expect(w.kind.phases).toContain(failed.phase);
    expect(failed.completed_at).toEqual(expect.any(String));
    const { charged, refunded } = failed.tokens;
    expect(refunded).toBeGreaterThan(0);
    expect(refunded).toBeLessThan(charged);
    expect(await w.balance()).toBe(before - charged + refunded);
    expectApiError(await w.emu.api('POST', w.path('cancel', id)), 409, 'not_cancelable');

    const resumed = await w.emu.api('POST', w.path('resume', id));
    expectOk(resumed, 202);
    // Back to the body it was created with, its step counter at zero, charged a second time.
    expect(resumed.json).toEqual({ ...created, tokens: { charged: 2 * charged, refunded } });
    await w.advance(END);
    expect(await w.get(id)).toMatchObject({ status: 'succeeded', error: null, progress: 1 });
    await expectTerminal(w, id);
    expect(await w.eventTypes(id)).toEqual(
      ['queued', 'processing', 'failed', 'queued', 'processing', 'succeeded'].map(
        (s) => `${w.kind.name}.${s}`,
      ),
    );
  });

  test('cancel of a processing run answers 202 canceling, then it is canceled; resume runs it again', async () => {
    const w = kindWorld(registered);
    const created = await w.create();
    const { id } = created;
    await w.untilProcessing(id);
    // Half a second into processing, so that it has consumed part of its charge.
    await w.advance(0.5);
    expect((await w.get(id)).status).toBe('processing');
    const canceling = await w.emu.api('POST', w.path('cancel', id));
    expectOk(canceling, 202);
    expect(canceling.json).toMatchObject({ id, status: 'canceling' });
    await w.advance(END);
    const canceled = await w.get(id);
    expect(canceled).toMatchObject({ status: 'canceled', result: null, download: null });
    expect(canceled.completed_at).toEqual(expect.any(String));
    expect(canceled.tokens.refunded).toBeGreaterThan(0);
    expect(canceled.tokens.refunded).toBeLessThan(canceled.tokens.charged);
    expectApiError(await w.emu.api('POST', w.path('cancel', id)), 409, 'not_cancelable');
    expect(await w.eventTypes(id)).toEqual(
      ['queued', 'processing', 'canceling', 'canceled'].map((s) => `${w.kind.name}.${s}`),
    );

    const resumed = await w.emu.api('POST', w.path('resume', id));
    expectOk(resumed, 202);
    const { charged, refunded } = canceled.tokens;
    expect(resumed.json).toEqual({ ...created, tokens: { charged: 2 * charged, refunded } });
    await w.advance(END);
    expect((await w.get(id)).status).toBe('succeeded');
  });

  test('cancel of a queued run refunds its whole charge; a queued or processing run is not resumable', async () => {
    const w = kindWorld(registered);
    const before = await w.balance();
    const { id } = await w.create();
    expectApiError(await w.emu.api('POST', w.path('resume', id)), 409, 'not_resumable');
    expectOk(await w.emu.api('POST', w.path('cancel', id)), 202);
    expectApiError(await w.emu.api('POST', w.path('resume', id)), 409, 'not_resumable');
    await w.advance(END);
    const run = await w.get(id);
    expect(run).toMatchObject({ status: 'canceled', started_at: null });
    expect(run.tokens.refunded).toBe(run.tokens.charged);
    expect(await w.balance()).toBe(before);
    expect(await w.eventTypes(id)).toEqual(
      ['queued', 'canceling', 'canceled'].map((s) => `${w.kind.name}.${s}`),
    );
    const next = await w.create();
    await w.untilProcessing(next.id);
    expectApiError(await w.emu.api('POST', w.path('resume', next.id)), 409, 'not_resumable');
  });

  test('GET /v1/operations/{id} answers the run compactly, as its GET shows it', async () => {
    const w = kindWorld(registered);
    const { id } = await w.create();
    for (const seconds of [0, 1, END]) {
      await w.advance(seconds);
      const op = await w.emu.api('GET', `/v1/operations/${id}`);
      expectOk(op, 200);
      const run = await w.get(id);
      expect(op.json).toEqual({
        id,
        object: 'operation',
        kind: w.kind.name,
        status: run.status,
        progress: run.progress,
        links: { self: BASE + w.path('get', id) },
      });
    }
  });

  test("usage counts the kind's runs by status under its collection and sums their tokens", async () => {
    const w = kindWorld(registered);
    const usage = async () => {
      const res = await w.emu.api('GET', '/v1/usage');
      expectOk(res, 200);
      return res.json;
    };
    const start = await usage();
    const zero = { queued: 0, processing: 0, canceling: 0, succeeded: 0, failed: 0, canceled: 0 };
    expect(start[w.kind.collection]).toEqual({ total: 0, by_status: zero });
    const a = await w.create();
    await w.advance(END);
    const b = await w.create(withOutcomes(w.body, [{ fail: 'interrupted' }]));
    await w.advance(END);
    const c = await w.create();
    const runs = [await w.get(a.id), await w.get(b.id), await w.get(c.id)];
    const charged = runs.reduce((n, r) => n + r.tokens.charged, 0);
    const refunded = runs.reduce((n, r) => n + r.tokens.refunded, 0);
    const now = await usage();
    expect(now[w.kind.collection]).toEqual({
      total: 3,
      by_status: { ...zero, succeeded: 1, failed: 1, queued: 1 },
    });
    expect(now.tokens).toEqual({ charged, refunded, net: charged - refunded });
    expect(now.token_balance).toBe(start.token_balance - charged + refunded);
  });
});
