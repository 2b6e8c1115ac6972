import { expect, test } from 'vitest';
import { createPrng, type Prng } from '../../src/prng.js';
import {
  type FaultDecision,
  type FaultRule,
  type FaultRuleInput,
  FaultRules,
  type FaultTarget,
} from '../../src/runtime/fault-rules.js';
import { DEFAULT_ACCOUNT, expectError, testEmulator } from '../helpers.js';

// Issue 12 item 5: rules are indexed by what they match. Whatever the buckets, a call must see
// the same rules fire, in the same (creation) order, with the same counters and draws, and look
// its caller up in the same cases, as when every rule was tried one by one.

const SEED = 'index-test';

/** The matching as it was before the index: every rule in creation order (the oracle). */
function linearDecide(rules: FaultRule[], draw: Prng, target: FaultTarget): FaultDecision {
  const decision: FaultDecision = { delayMs: 0, fired: [], action: null };
  let caller: ReturnType<FaultTarget['caller']> | undefined;
  for (const rule of rules) {
    if (rule.times !== undefined && rule.hits >= rule.times) continue;
    const m = rule.match;
    if (m.method !== undefined && m.method !== target.method) continue;
    if (m.route !== undefined && m.route !== target.route) continue;
    if (m.operation !== undefined && m.operation !== target.operation) continue;
    if (m.account !== undefined || m.key !== undefined) {
      if (caller === undefined) caller = target.caller();
      if (m.account !== undefined && m.account !== caller?.accountId) continue;
      if (m.key !== undefined && m.key !== caller?.keyId) continue;
    }
    if (rule.skipped < rule.skip) {
      rule.skipped += 1;
      continue;
    }
    if (rule.probability !== undefined && draw() >= rule.probability) continue;
    rule.hits += 1;
    decision.fired.push(rule);
    const r = rule.respond;
    if ('delay_ms' in r) {
      decision.delayMs += r.delay_ms;
      continue;
    }
    decision.action = 'drop' in r ? { kind: 'drop', rule } : { kind: 'error', rule, respond: r };
    break;
  }
  return decision;
}

const pick = <T>(rand: Prng, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const maybe = <T>(rand: Prng, value: T, p = 0.5): T | undefined => (rand() < p ? value : undefined);

const METHODS = ['GET', 'POST', 'DELETE'];
const ROUTES: [string, string][] = [
  ['/v1/keys/me', 'getCurrentKey'],
  ['/v1/evaluations', 'createEvaluation'],
  ['/v1/evaluations/{run_id}/resume', 'resumeEvaluation'],
  ['/v1/twins/{twin_id}/files', 'listTwinFiles'],
];
const CALLERS = [
  null,
  { accountId: 'acct_a', keyId: 'key_a1' },
  { accountId: 'acct_a', keyId: 'key_a2' },
  { accountId: 'acct_b', keyId: 'key_b1' },
];

/** A rule of a random kind (each field present or not), some with times, skip, probability. */
function randomRule(rand: Prng): FaultRuleInput {
  const [route, operation] = pick(rand, ROUTES);
  const caller = pick(rand, CALLERS.slice(1))!;
  const match = {
    method: maybe(rand, pick(rand, METHODS), 0.4),
    route: maybe(rand, route, 0.25),
    operation: maybe(rand, operation, 0.25),
    account: maybe(rand, caller.accountId, 0.25),
    key: maybe(rand, caller.keyId, 0.2),
  };
  const kind = rand();
  const respond =
    kind < 0.3
      ? { delay_ms: Math.floor(rand() * 5) }
      : kind < 0.35
        ? { drop: true as const }
        : { status: pick(rand, [409, 429, 500, 503]) };
  return {
    match: Object.fromEntries(Object.entries(match).filter(([, v]) => v !== undefined)),
    respond,
    times: maybe(rand, 1 + Math.floor(rand() * 3), 0.3),
    skip: rand() < 0.2 ? Math.floor(rand() * 3) : 0,
    probability: maybe(rand, 0.5, 0.15),
  };
}

const summary = (d: FaultDecision) => ({
  delayMs: d.delayMs,
  fired: d.fired.map((r) => r.id),
  action: d.action && { kind: d.action.kind, rule: d.action.rule.id },
});

test('indexed matching fires the same rules, in the same order, as trying every rule', () => {
  const rand = createPrng(SEED, 'rules');
  const indexed = new FaultRules(SEED);
  const oracle: FaultRule[] = [];
  const oracleDraw = createPrng(SEED, 'faults');
  let n = 0;
  const add = () => {
    const rule = indexed.add(randomRule(rand), `flt_${n++}`, '2026-01-01T00:00:00.000Z');
    oracle.push(structuredClone(rule));
  };
  for (let i = 0; i < 600; i++) add();

  let fired = 0;
  for (let call = 0; call < 4000; call++) {
    if (call % 250 === 249) {
      // Rules come and go between calls: the buckets must follow.
      const id = pick(rand, oracle).id;
      expect(indexed.remove(id)).toBe(true);
      oracle.splice(
        oracle.findIndex((r) => r.id === id),
        1,
      );
      for (let i = 0; i < 20; i++) add();
    }
    const [route, operation] = pick(rand, ROUTES);
    const caller = pick(rand, CALLERS);
    const target = (asked: { n: number }): FaultTarget => ({
      method: pick(rand, METHODS),
      route: rand() < 0.1 ? null : route,
      operation: rand() < 0.1 ? null : operation,
      caller: () => {
        asked.n += 1;
        return caller;
      },
    });
    const a = { n: 0 };
    const b = { n: 0 };
    const t = target(a);
    const got = indexed.decide(t);
    const countedCaller = () => {
      b.n += 1;
      return caller;
    };
    const want = linearDecide(oracle, oracleDraw, { ...t, caller: countedCaller });
    expect(summary(got)).toEqual(summary(want));
    // The caller (a digest of the secret, kept for the journal) is looked up in the same cases;
    // a call a rule answers always looks it up (`checkFaults`), whichever rule asked first.
    expect(a.n > 0 || got.action !== null).toBe(b.n > 0 || want.action !== null);
    fired += got.fired.length;
  }
  expect(fired).toBeGreaterThan(1000);
  const counters = (rules: readonly FaultRule[]) =>
    rules.map((r) => ({ id: r.id, hits: r.hits, skipped: r.skipped }));
  expect(counters(indexed.list())).toEqual(counters(oracle));
});

test('many rules of every kind: the first installed that matches fires, whatever its bucket', async () => {
  const { api, control } = testEmulator();
  const me = (await api('GET', '/v1/keys/me')).json;
  // 200 rules of each kind that keys/me never matches.
  for (let i = 0; i < 200; i++) {
    for (const match of [
      { route: '/v1/evaluations', method: 'POST' },
      { route: '/v1/keys/me', method: 'DELETE' },
      { operation: 'createEvaluation' },
      { account: `acct_other_${i}` },
      { key: `key_other_${i}` },
      { method: 'PUT' },
    ]) {
      await control('POST', '/faults', { match, respond: { status: 500 } });
    }
  }
  // Then one matching rule per bucket, each firing once, installed in an order no bucket has.
  const matching = [
    [{ method: 'GET' }, 503],
    [{ account: DEFAULT_ACCOUNT }, 502],
    [{ route: '/v1/keys/me' }, 429],
    [{}, 404],
    [{ operation: 'getCurrentKey', method: 'GET' }, 403],
    [{ key: me.id, method: 'GET' }, 409],
    [{ route: '/v1/keys/me', method: 'GET' }, 401],
  ] as const;
  for (const [match, status] of matching) {
    await control('POST', '/faults', { match, respond: { status }, times: 1 });
  }
  for (const [, status] of matching) {
    expect((await api('GET', '/v1/keys/me')).status).toBe(status);
  }
  expect((await api('GET', '/v1/keys/me')).status).toBe(200);
  const rules = (await control('GET', '/faults')).data as { hits: number }[];
  expect(rules.reduce((n, r) => n + r.hits, 0)).toBe(matching.length);
  // A removed rule leaves its bucket.
  await control('POST', '/faults', {
    match: { account: DEFAULT_ACCOUNT },
    respond: { status: 503 },
  });
  const last = ((await control('GET', '/faults')).data as { id: string }[]).at(-1)!;
  expectError(await api('GET', '/v1/keys/me'), 503, 'api_error');
  await control('DELETE', `/faults/${last.id}`);
  expect((await api('GET', '/v1/keys/me')).status).toBe(200);
});
