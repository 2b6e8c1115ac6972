/**
 * Mixed load as an SDK test suite makes it, over keep-alive HTTP against a server in another
 * process: each worker plays one test after another on an account of its own
 * (a fresh one every {@link TESTS_PER_ACCOUNT} tests, as a suite's `newAccount()` per file):
 * create a run of each kind in turn (an evaluation that fails first every other time, some with an
 * `Idempotency-Key`), read it, advance the clock, read and list, download the archive or resume
 * the failed run, and the error paths (404, 401, 409, 400, faults).
 */
import http from 'node:http';

/** Bodies of each kind's create call (the catalog's ids; training runs one per policy). */
const KINDS: { collection: string; prefix: string; body: (n: number) => object }[] = [
  {
    collection: 'evaluations',
    prefix: 'eval',
    body: (n) => ({
      spec: { path: 'specs/pick.yaml', name: `bench-${n % 50}` },
      options: {
        episodes: 20,
        // Every other evaluation fails its first attempt, so the test can resume it.
        ...(n % 2
          ? { emulator: { outcomes: [{ fail: 'policy_failed', after_episodes: 3 }] } }
          : {}),
      },
    }),
  },
  {
    collection: 'augmentations',
    prefix: 'aug',
    body: () => ({ dataset: 'ds_01KA0000000000000000PANDA1', config: { episode_count: 4 } }),
  },
  {
    collection: 'rl_runs',
    prefix: 'rl',
    body: () => ({ robot: 'franka_panda', task: 'pick_place' }),
  },
  {
    collection: 'scenario_runs',
    prefix: 'scnrun',
    body: () => ({
      policy: 'pol_01KA0000000000000000PANDA1',
      scenarios: ['scn_builtin_pick_place', 'scn_builtin_push'],
    }),
  },
  {
    collection: 'twins',
    prefix: 'twin',
    body: (n) => ({ dataset: 'ds_01KA0000000000000000PANDA1', episode: n % 4 }),
  },
  {
    collection: 'training_runs',
    prefix: 'train',
    body: () => ({
      policy: 'pol_01KA0000000000000000PANDA1',
      dataset: 'ds_01KA0000000000000000PANDA1',
    }),
  },
];

/** Tests one worker plays on an account before it takes a new one. */
export const TESTS_PER_ACCOUNT = 25;

export interface MixedLoadStats {
  requests: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Answers a step did not expect, and failed connections. */
  unexpected: number;
  errors: number;
  /** Creates answered 201 (the runs the world now holds, beside the scenario's own). */
  runsCreated: number;
  accountsCreated: number;
  archiveBytes: number;
  /** A few of the unexpected answers, for the report. */
  samples: string[];
}

interface Answer {
  status: number;
  body: Buffer;
}

/** Failed calls after which the load stops: the server is broken, more would not tell more. */
const GIVE_UP_AFTER = 1000;

/** Runs the load with `connections` workers until they have created `runs` runs. */
export async function mixedLoad(
  baseUrl: string,
  connections: number,
  runs: number,
): Promise<MixedLoadStats> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const stats: MixedLoadStats = {
    requests: 0,
    statuses: {},
    unexpected: 0,
    errors: 0,
    runsCreated: 0,
    accountsCreated: 0,
    archiveBytes: 0,
    samples: [],
  };
  const going = () => stats.runsCreated < runs && stats.unexpected + stats.errors < GIVE_UP_AFTER;
  let serial = 0;

  const send = (method: string, path: string, headers: object, body?: object) =>
    new Promise<Answer>((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        `${baseUrl}${path}`,
        {
          method,
          agent,
          headers: { ...headers, ...(data ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });

  /** One call whose status must be one of `expected`; answers the body, or null. */
  const call = async (
    expected: number[],
    method: string,
    path: string,
    headers: object = {},
    body?: object,
  ): Promise<Answer | null> => {
    stats.requests++;
    try {
      const answer = await send(method, path, headers, body);
      stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
      if (expected.includes(answer.status)) return answer;
      stats.unexpected++;
      if (stats.samples.length < 5) {
        stats.samples.push(
          `${method} ${path}: ${answer.status} ${answer.body.toString().slice(0, 200)}`,
        );
      }
    } catch (err) {
      stats.errors++;
      if (stats.samples.length < 5)
        stats.samples.push(`${method} ${path}: ${(err as Error).message}`);
    }
    return null;
  };
  const json = (a: Answer | null) => (a ? JSON.parse(a.body.toString()) : null);

  const newAccount = async () => {
    const created = json(
      await call(
        [201],
        'POST',
        '/_control/accounts',
        {},
        {
          features: ['twins'],
          token_balance: 1_000_000_000,
          limits: { requests_per_minute: 1_000_000, concurrent_runs: 1_000_000 },
        },
      ),
    );
    if (!created) throw new Error(`cannot create an account: ${stats.samples.join('; ')}`);
    stats.accountsCreated++;
    return {
      id: created.account.id as string,
      auth: { authorization: `Bearer ${created.key.secret}` },
    };
  };

  /** One test: a run of the next kind through its life, and the error paths around it. */
  const oneTest = async (account: { id: string; auth: object }, n: number) => {
    const { auth } = account;
    const kind = KINDS[n % KINDS.length]!;
    const base = `/v1/${kind.collection}`;
    const advance = () =>
      call([200], 'POST', `/_control/accounts/${account.id}/clock/advance`, {}, { seconds: 3600 });
    const idem = n % 3 === 0 ? { 'idempotency-key': `bench-${n}` } : {};
    // A training run already active on the policy answers 409; so may a replayed key.
    const created = await call([201, 200, 409], 'POST', base, { ...auth, ...idem }, kind.body(n));
    const run = json(created);
    if (created?.status === 201) stats.runsCreated++;
    const id: string = run?.id ?? 'eval_01KA0000000000000000000000';
    await call([200, 404], 'GET', `${base}/${id}`, auth);
    await advance();
    const after = json(await call([200, 404], 'GET', `${base}/${id}`, auth));
    await call([200], 'GET', `${base}?limit=20`, auth);
    if (after?.status === 'succeeded') {
      const archive = await call([200], 'GET', `${base}/${id}/archive`, auth);
      stats.archiveBytes += archive?.body.length ?? 0;
      await call([409], 'POST', `${base}/${id}/resume`, auth);
    } else if (after?.status === 'failed') {
      await call([200, 202], 'POST', `${base}/${id}/resume`, auth);
      await advance();
      const archive = await call([200], 'GET', `${base}/${id}/archive`, auth);
      stats.archiveBytes += archive?.body.length ?? 0;
    }
    await call([404], 'GET', `${base}/${kind.prefix}_01KA0000000000000000000000`, auth);
    await call([401], 'GET', '/v1/keys/me', { authorization: 'Bearer svc_bench_unknown_key' });
    await call([500], 'GET', '/v1/keys/me', { ...auth, 'x-emulator-fault': '500' });
    await call([400], 'GET', '/v1/evaluations?limit=0', auth);
    await call([200], 'GET', '/v1/keys/me', auth);
  };

  const worker = async () => {
    while (going()) {
      const account = await newAccount();
      for (let t = 0; t < TESTS_PER_ACCOUNT && going(); t++) {
        await oneTest(account, serial++);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  return stats;
}
