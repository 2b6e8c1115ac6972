/**
 * The error-handling lab with real clients (issue 38's "Done when"): a careful client grades 0
 * failures and `svc-emulator grade` exits 0; each fault of behaviour put into it fails exactly its
 * finding and `grade` exits 1; ky and p-retry as users configure them. The emulator listens in
 * this process; the clients and `grade` (a process of its own) reach it over HTTP.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import ky, { HTTPError } from 'ky';
import pRetry, { AbortError } from 'p-retry';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  type RunningEmulator,
  startEmulator,
  type TestAccount,
} from '../../src/tools/harness/index.js';
import { runCli } from '../cli-process.js';
import { carefulClient, type Flaw, type Sender } from './client.js';
import { CAREFUL, errorSuite, verdicts } from './suite.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.stop());

const grade = (acct: TestAccount) =>
  runCli(['grade', '--url', emu.baseUrl, '--account', acct.account.id]);

const failing = (v: Record<string, string>) => Object.keys(v).filter((rule) => v[rule] === 'fail');

describe('a careful client', () => {
  test('grades 0 failures and grade exits 0', async () => {
    const acct = await emu.control.newAccount();
    const send = carefulClient({ apiUrl: acct.apiUrl, secret: acct.key.secret });
    const answers = await errorSuite(emu.control, acct, send);
    expect(answers).toEqual({
      me: 200,
      list: 200,
      created: 201,
      limited: 200,
      conflict: 409,
      down: 503,
    });
    expect(await verdicts(acct)).toEqual(CAREFUL);
    const run = await grade(acct);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(`account ${acct.account.id} (1 key, `);
    expect(run.stdout).toContain(': 8 passed, 0 failed, 1 not judged, 0 reported');
    expect(run.stdout).not.toContain('FAIL');
  });

  // The flaw, and the findings it fails: a new key per retry also leaves the duplicate the
  // first key would have prevented (the lost write is made again), which is its own finding.
  const FLAWS: [Flaw, string[]][] = [
    ['new_key_per_retry', ['idempotency_key_kept', 'no_duplicate_write']],
    ['ignores_retry_after', ['retry_after_honoured']],
    ['retries_409', ['final_not_resent']],
    ['retry_storm', ['retries_bounded']],
  ];
  test.each(FLAWS)(
    'with %s fails exactly %j and grade exits 1 with the evidence',
    async (flaw, rules) => {
      const acct = await emu.control.newAccount();
      const send = carefulClient({ apiUrl: acct.apiUrl, secret: acct.key.secret, flaw });
      await errorSuite(emu.control, acct, send);
      expect(failing(await verdicts(acct))).toEqual(rules);
      const run = await grade(acct);
      expect(run.code).toBe(1);
      const failed = run.stdout.split('\n').filter((line) => line.trimStart().startsWith('FAIL'));
      expect(failed.map((line) => line.split(/\s+/)[4]!.replace(/:$/, ''))).toEqual(rules);
      // Each failure is followed by its evidence: the request ids that show it.
      expect(run.stdout).toMatch(/FAIL .*\n\s+- fail: .*\(req_\w+ /);
    },
  );
});

/**
 * ky as its README configures retries, with POST retried (the key makes that safe), with its
 * full jitter (`jitter: true`) or without (ky's default).
 */
function kySender(acct: TestAccount, jitter: boolean): Sender {
  const api = ky.create({
    prefixUrl: acct.apiUrl,
    headers: acct.headers,
    retry: {
      limit: 3,
      methods: ['get', 'post'],
      ...(jitter ? { jitter: true } : {}),
    },
  });
  return async ({ method, path, body, idempotencyKey }) => {
    const key = idempotencyKey ?? (method === 'POST' ? crypto.randomUUID() : undefined);
    try {
      const res = await api(path.slice(1), {
        method,
        json: body,
        headers: key ? { 'idempotency-key': key } : {},
      });
      return res.status;
    } catch (err) {
      if (err instanceof HTTPError) return err.response.status;
      throw err;
    }
  };
}

/**
 * p-retry around fetch, as its README shows: retryable answers thrown, a 4xx returned.
 * `honourRetryAfter` adds what p-retry does not do itself: wait for `Retry-After` first.
 */
function pRetrySender(acct: TestAccount, honourRetryAfter: boolean): Sender {
  return async ({ method, path, body, idempotencyKey }) => {
    const key = idempotencyKey ?? (method === 'POST' ? crypto.randomUUID() : undefined);
    let last = 0;
    const headers: Record<string, string> = { ...acct.headers, 'content-type': 'application/json' };
    if (key) headers['idempotency-key'] = key;
    try {
      return await pRetry(
        async () => {
          const res = await fetch(`${acct.apiUrl}${path}`, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          await res.arrayBuffer();
          last = res.status;
          if ([429, 502, 503, 504].includes(res.status)) {
            throw Object.assign(new Error(`retryable ${res.status}`), {
              retryAfter: Number(res.headers.get('retry-after') ?? Number.NaN),
            });
          }
          if (res.status >= 400 && res.status < 500) throw new AbortError(`final ${res.status}`);
          return res.status;
        },
        {
          retries: 3,
          minTimeout: 50,
          factor: 2,
          randomize: true,
          onFailedAttempt: async ({ error }) => {
            const after = (error as { retryAfter?: number }).retryAfter;
            if (honourRetryAfter && Number.isFinite(after)) await sleep(after! * 1000);
          },
        },
      );
    } catch {
      return last;
    }
  };
}

describe('clients as users configure them', () => {
  // ky's and p-retry's jitter draw from Math.random: a fixed, evenly spread sequence instead, so
  // that the waits they choose (and so the jitter verdict) are the same in every run. Unseeded,
  // three draws close by chance failed the jitter rule once in a while.
  beforeEach(() => {
    let n = 0;
    vi.spyOn(Math, 'random').mockImplementation(() => (n++ * 0.6180339887498949) % 1);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('ky with limit 3, POST retried with its key, and jitter: 0 failures', async () => {
    const acct = await emu.control.newAccount();
    const answers = await errorSuite(emu.control, acct, kySender(acct, true));
    expect(answers).toMatchObject({ created: 201, limited: 200, conflict: 409, down: 503 });
    expect(await verdicts(acct)).toEqual(CAREFUL);
  });

  test('ky without jitter (its default) fails jitter: every call waits the same', async () => {
    const acct = await emu.control.newAccount();
    await errorSuite(emu.control, acct, kySender(acct, false));
    expect(failing(await verdicts(acct))).toEqual(['jitter']);
  });

  test('p-retry does not read Retry-After: retry_after_honoured fails until the client waits for it', async () => {
    const plain = await emu.control.newAccount();
    await errorSuite(emu.control, plain, pRetrySender(plain, false));
    expect(failing(await verdicts(plain))).toEqual(['retry_after_honoured']);
    const run = await grade(plain);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/asked 2 s; the retry came \d+ ms later/);

    const fixed = await emu.control.newAccount();
    await errorSuite(emu.control, fixed, pRetrySender(fixed, true));
    expect(await verdicts(fixed)).toEqual(CAREFUL);
  });
});
