/** The client report's rules on journal entries made by hand: each rule, and too little evidence. */
import { expect, test } from 'vitest';
import type { JournalEntry } from '../requests/journal.js';
import { clientReport } from './report.js';
import { flatByChance } from './retry-rules.js';

let n = 0;
/** An attempt received at wall `at` (ms) and answered `took` ms later. */
function attempt(at: number, fields: Partial<JournalEntry> = {}, took = 2): JournalEntry {
  n += 1;
  return {
    request_id: `req_${String(n).padStart(4, '0')}`,
    method: 'POST',
    path: '/v1/evaluations',
    route: '/v1/evaluations',
    operation: 'createEvaluation',
    status: 201,
    code: null,
    account_id: 'acct_1',
    key_id: 'key_1',
    fault_id: null,
    idempotent_replayed: false,
    at_ms: 0,
    wall_ms: at + took,
    duration_ms: took,
    idempotency_key: 'k1',
    body_digest: 'b1',
    retry_after: null,
    fault_after: false,
    work_status: null,
    hang_ms: null,
    client_closed: false,
    resource_id: null,
    ...fields,
  };
}

/** A call failing `fails` times with 503, then 201, after waits `waits` (ms). */
function call(start: number, waits: number[], fields: Partial<JournalEntry> = {}) {
  const out: JournalEntry[] = [];
  let at = start;
  waits.forEach((w) => {
    out.push(attempt(at, { status: 503, code: 'api_error', ...fields }));
    at += 2 + w;
  });
  out.push(attempt(at, fields));
  return out;
}

const verdicts = (entries: JournalEntry[]) =>
  Object.fromEntries(
    clientReport(entries, { account: 'acct_1', key: null }).keys[0]!.findings.map((f) => [
      f.rule,
      f.verdict,
    ]),
  );

const WELL = {
  retryable_retried: 'pass',
  retries_bounded: 'pass',
  backoff: 'pass',
  jitter: 'pass',
  retry_after_honoured: 'not_judged',
  final_not_resent: 'not_judged',
  idempotency_key_kept: 'pass',
  no_duplicate_write: 'not_judged',
  hang_abandoned: 'not_judged',
};

test('growing, jittered retries with the first key pass; what was not met is not judged', () => {
  const entries = [
    ...call(0, [52, 110, 230], { body_digest: 'a' }),
    ...call(10_000, [71, 140, 205], { body_digest: 'b', idempotency_key: 'k2' }),
  ];
  expect(verdicts(entries)).toEqual(WELL);
});

test('one retry a call shows neither growth nor jitter: not judged, never failed', () => {
  const entries = [...call(0, [50]), ...call(5000, [80], { body_digest: 'c' })];
  expect(verdicts(entries)).toMatchObject({ backoff: 'not_judged', jitter: 'pass' });
  expect(verdicts(call(0, [50]))).toMatchObject({ backoff: 'not_judged', jitter: 'not_judged' });
});

test('fixed waits fail backoff and jitter; two calls alike are not judged (that can be chance)', () => {
  const two = [...call(0, [100, 100, 101]), ...call(9000, [100, 101, 100], { body_digest: 'x' })];
  // Two calls of three flat waits: a jittered backoff shows that 1 in 576 times, too often to fail.
  expect(verdicts(two)).toMatchObject({ backoff: 'not_judged', jitter: 'not_judged' });
  // Three calls: the longest wait of each retry is left out (a late timer), the rest are alike;
  // three flat calls are 1 in 13,824 for a jittered backoff.
  const three = [...two, ...call(20_000, [108, 109, 100], { body_digest: 'y' })];
  expect(verdicts(three)).toMatchObject({ backoff: 'fail', jitter: 'fail' });
  // A tenth apart is the clocks' noise on a busy machine, not jitter.
  const late = [...two, ...call(20_000, [109, 100, 100], { body_digest: 'z' })];
  expect(verdicts(late)).toMatchObject({ jitter: 'fail' });
});

test('waits that do not grow fail backoff only when jitter would rarely show as many', () => {
  // Equal jitter (half fixed, half random) drew a first wait near its top and a second near its
  // bottom: 1 in 4 for full jitter, so a correct client is not failed on it.
  const report = clientReport(call(0, [50, 52]), { account: 'acct_1', key: null });
  const backoff = report.keys[0]!.findings.find((f) => f.rule === 'backoff')!;
  expect(backoff.verdict).toBe('not_judged');
  expect(backoff.summary).toBe(
    'No call retried twice or more waited longer later, but a client backing off with jitter ' +
      'shows 1 call like these about 1 in 4 times: too few to tell.',
  );
  expect(backoff.cases.map((c) => c.verdict)).toEqual(['info']);
  // One call of five flat waits: 1 in 5,120.
  expect(verdicts(call(0, [100, 100, 101, 100, 100]))).toMatchObject({ backoff: 'fail' });
  expect(verdicts(call(0, [100, 100, 101, 100]))).toMatchObject({ backoff: 'not_judged' });
  // Five calls retried twice, flat: 1 in 1,024.
  const five = [0, 1, 2, 3, 4].flatMap((i) => call(i * 5000, [100, 101], { body_digest: `f${i}` }));
  expect(verdicts(five)).toMatchObject({ backoff: 'fail' });
  expect(flatByChance(2)).toBe(1 / 4);
  expect(flatByChance(3)).toBe(1 / 24);
});

test('a new Idempotency-Key per retry fails only the key rule', () => {
  const entries = [
    ...call(0, [52, 110, 230], { body_digest: 'a' }),
    ...call(10_000, [71, 140, 205], { body_digest: 'b' }),
  ].map((e, i) => ({ ...e, idempotency_key: `k${i}` }));
  expect(verdicts(entries)).toEqual({ ...WELL, idempotency_key_kept: 'fail' });
});

test('a retry sooner than Retry-After fails; one after it passes', () => {
  const early = [attempt(0, { status: 429, retry_after: 2 }), attempt(50)];
  const late = [attempt(0, { status: 429, retry_after: 2 }), attempt(2010)];
  expect(verdicts(early).retry_after_honoured).toBe('fail');
  expect(verdicts(late).retry_after_honoured).toBe('pass');
  const report = clientReport(early, { account: 'acct_1', key: null });
  const finding = report.keys[0]!.findings.find((f) => f.rule === 'retry_after_honoured')!;
  expect(finding.cases[0]!.note).toBe('a 429 asked 2 s; the retry came 48 ms later');
  expect(finding.cases[0]!.requests.map((r) => r.request_id)).toEqual(
    early.map((e) => e.request_id),
  );
});

test('a 409 sent again unchanged fails; a changed request is a new call', () => {
  const conflict = { status: 409, code: 'idempotency_key_reused' };
  expect(verdicts([attempt(0, conflict), attempt(100, conflict)]).final_not_resent).toBe('fail');
  const changed = [attempt(0, conflict), attempt(100, { body_digest: 'other' })];
  expect(verdicts(changed).final_not_resent).toBe('pass');
});

test('more than 10 retries of one call is a storm', () => {
  const storm = call(0, [1, 2, 4, 8, 16, 20, 20, 20, 20, 20, 20]);
  expect(verdicts(storm)).toMatchObject({ retries_bounded: 'fail', retryable_retried: 'pass' });
  expect(verdicts(call(0, [1, 2, 4, 8, 16, 20, 20, 20, 20, 20])).retries_bounded).toBe('pass');
});

test('a write whose answer was lost, made again without its key, is named with both ids', () => {
  const lost = attempt(0, {
    status: 502,
    code: 'launch_failed',
    fault_after: true,
    work_status: 201,
    resource_id: 'eval_A',
    idempotency_key: null,
  });
  const again = attempt(300, { resource_id: 'eval_B', idempotency_key: null });
  const report = clientReport([lost, again], { account: 'acct_1', key: null });
  const dup = report.keys[0]!.findings.find((f) => f.rule === 'no_duplicate_write')!;
  expect(dup.verdict).toBe('fail');
  expect(dup.cases[0]!.note).toContain('eval_A');
  expect(dup.cases[0]!.note).toContain('eval_B');
  const replayed = attempt(300, { idempotent_replayed: true, resource_id: null });
  expect(verdicts([{ ...lost, idempotency_key: 'k1' }, replayed]).no_duplicate_write).toBe('pass');
});

test('a retryable answer never retried fails; hung answers are reported, not judged', () => {
  const hung = attempt(0, { status: null, hang_ms: 5000, client_closed: true }, 800);
  expect(verdicts([hung])).toMatchObject({ retryable_retried: 'fail', hang_abandoned: 'info' });
  const report = clientReport([hung], { account: 'acct_1', key: null });
  expect(report.keys[0]!.findings.at(-1)!.cases[0]!.note).toBe(
    'the client gave up after 800 ms of a 5000 ms hang',
  );
});

test('keys are told apart: each gets its own findings', () => {
  const mine = call(0, [50, 120]);
  const theirs = call(0, [50, 120]).map((e) => ({ ...e, key_id: 'key_2', idempotency_key: null }));
  const report = clientReport([...mine, ...theirs], { account: 'acct_1', key: null });
  expect(report.keys.map((k) => k.key)).toEqual(['key_1', 'key_2']);
  const keyRule = (i: number) =>
    report.keys[i]!.findings.find((f) => f.rule === 'idempotency_key_kept')!.verdict;
  expect([keyRule(0), keyRule(1)]).toEqual(['pass', 'fail']);
  expect(report.summary).toMatchObject({ keys: 2, calls: 2 });
});
