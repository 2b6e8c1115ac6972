/**
 * Receiver chaos (docs/runtime.md "Receiver chaos") as an SDK's receiver tests meet it: real
 * local receivers, the harness, and the receiver report judging their answers. A receiver built
 * on the official `standardwebhooks` library passes; one that skips verification fails on forged
 * and stale deliveries; one that answers 500 to an id it has seen fails on duplicates.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../test/wait.js';
import { type Received, type Receiver, startReceiver } from '../../../test/webhook-receiver.js';
import type { ControlClient, RunningEmulator, TestAccount } from '../../tools/harness/index.js';
import { startEmulator } from '../../tools/harness/index.js';

const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
const EVERY_KIND = {
  duplicate: true,
  out_of_order: true,
  stale_timestamp: true,
  bad_signature: true,
  unknown_type: true,
};

let running: RunningEmulator;
let control: ControlClient;
beforeAll(async () => {
  running = await startEmulator();
  control = running.control;
});
afterAll(() => running.stop());

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

type Answer = (n: number, r: Received) => number;

async function receiver(answer: Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

/** As the Standard Webhooks spec asks: verify, then use `webhook-id` as an idempotency key. */
function careful(onSeen = 200): Answer {
  const seen = new Set<string>();
  return (_n, r) => {
    if (!r.verified) return 401;
    const id = String(r.headers['webhook-id']);
    if (seen.has(id)) return onSeen;
    seen.add(id);
    return 204; // an unknown type included: accepted and ignored
  };
}

/** A fresh account whose endpoint (created through the product API) has `chaos`. */
async function accountWith(r: Receiver, chaos: Record<string, unknown> = EVERY_KIND) {
  const account = await control.newAccount();
  const res = await fetch(`${account.apiUrl}/webhook_endpoints`, {
    method: 'POST',
    headers: { ...account.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url: r.url, emulator: { chaos } }),
  });
  expect(res.status).toBe(201);
  const endpoint = (await res.json()) as { id: string; secret: string };
  r.secret = endpoint.secret;
  return { account, endpoint };
}

/** An evaluation from queued to succeeded: three events, 5 virtual seconds. */
async function evaluate(account: TestAccount): Promise<void> {
  const res = await fetch(`${account.apiUrl}/evaluations`, {
    method: 'POST',
    headers: { ...account.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ spec: SPEC }),
  });
  expect(res.status).toBe(201);
  await account.clock.advance(5);
}

/** The account's deliveries once none is pending and no attempt is in flight. */
const settled = (account: TestAccount) =>
  eventually(async () => {
    const { data } = await control.listWebhookDeliveries({ account: account.account.id });
    const busy = data.some((d) => d.status === 'pending' || d.attempts.some((a) => a.in_flight));
    return busy ? undefined : data;
  }, 'every delivery finished');

/** Runs the evaluation with every kind of chaos, to the end of every hold and duplicate. */
async function exercise(answer: Answer) {
  const hook = await receiver(answer);
  const { account, endpoint } = await accountWith(hook);
  await evaluate(account);
  // The last event is held back 60 s (no later one comes), and its duplicate 5 s after that.
  await account.clock.advance(65);
  const deliveries = await settled(account);
  return { hook, account, endpoint, deliveries, report: await control.receiverReport(endpoint.id) };
}

const verdicts = (report: { findings: { rule: string; verdict: string }[] }) =>
  Object.fromEntries(report.findings.map((f) => [f.rule, f.verdict]));

test('a receiver built on standardwebhooks passes every rule of the receiver report', async () => {
  const { hook, deliveries, report } = await exercise(careful());
  expect(report.verdict).toBe('pass');
  expect(verdicts(report)).toEqual({
    genuine: 'pass',
    bad_signature: 'pass',
    stale_timestamp: 'pass',
    duplicate: 'pass',
    unknown_type: 'pass',
    out_of_order: 'pass',
  });
  // Three events: each a real delivery, a forged, a stale, an unknown type and a duplicate.
  const byChaos = (c: string | null) => deliveries.filter((d) => d.chaos === c).length;
  expect(byChaos('bad_signature') + byChaos('stale_timestamp') + byChaos('unknown_type')).toBe(9);
  expect(byChaos('duplicate')).toBe(3);
  // The first and last events held back (a held one lets the next go), the middle one not.
  expect([byChaos('out_of_order'), byChaos(null)]).toEqual([2, 1]);
  // The real deliveries went as always, each accepted at its first attempt.
  const real = deliveries.filter((d) => d.chaos === null || d.chaos === 'out_of_order');
  expect(real.map((d) => [d.status, d.attempts.length])).toEqual([
    ['delivered', 1],
    ['delivered', 1],
    ['delivered', 1],
  ]);
  // The receiver saw `evaluation.processing` before the `evaluation.queued` held behind it.
  const realTypes = hook.received
    .filter((r) => r.verified && r.type.startsWith('evaluation.') && !r.type.includes('unknown'))
    .map((r) => r.type);
  expect(realTypes.slice(0, 2)).toEqual(['evaluation.processing', 'evaluation.queued']);
});

test('a receiver that skips verification fails on bad_signature and stale_timestamp', async () => {
  const { report } = await exercise(() => 204);
  expect(report.verdict).toBe('fail');
  const v = verdicts(report);
  expect([v.bad_signature, v.stale_timestamp]).toEqual(['fail', 'fail']);
  expect([v.genuine, v.duplicate, v.unknown_type, v.out_of_order]).toEqual([
    'pass',
    'pass',
    'pass',
    'pass',
  ]);
  const forged = report.findings.find((f) => f.rule === 'bad_signature')!;
  expect(forged).toMatchObject({ expected: '4xx', judged: 3, passed: 0, failed: 3 });
  expect(forged.evidence[0]).toMatchObject({
    chaos: 'bad_signature',
    status_code: 204,
    series: 1,
    number: 1,
    verdict: 'fail',
  });
  expect(forged.evidence[0]!.webhook_id).toBe(forged.evidence[0]!.event_id);
  expect(forged.evidence[0]!.delivery_id).toMatch(/^whdl_\d{8}$/);
});

test('a receiver that answers 500 to an id it has seen fails on duplicate, and only there', async () => {
  const { report, deliveries } = await exercise(careful(500));
  expect(verdicts(report)).toMatchObject({
    duplicate: 'fail',
    genuine: 'pass',
    bad_signature: 'pass',
    stale_timestamp: 'pass',
  });
  const duplicates = deliveries.filter((d) => d.chaos === 'duplicate');
  // Each judged by one attempt, refused and never retried: the event was delivered already.
  expect(duplicates.map((d) => [d.status, d.attempts.map((a) => a.status_code)])).toEqual([
    ['failed', [500]],
    ['failed', [500]],
    ['failed', [500]],
  ]);
  const real = deliveries.filter((d) => d.chaos === null || d.chaos === 'out_of_order');
  for (const d of duplicates) {
    const first = real.find((r) => r.event_id === d.event_id)!;
    expect(d.webhook_id).toBe(first.webhook_id);
    // Due 5 virtual seconds (the retry schedule's second delay) after the accepted attempt.
    expect(Date.parse(d.attempts[0]!.at) - Date.parse(first.attempts[0]!.at)).toBe(5_000);
  }
});
