/**
 * Issue 29: webhook retries on the virtual clock stall no other account. 100 accounts each hold 100
 * deliveries to a receiver that always answers 500, their first attempts made; each account's clock
 * then advances 3 days, which makes the 7 remaining attempts of all 10,000 deliveries (70,000
 * POSTs) in the background. Meanwhile another account's `GET /v1/keys/me` runs at 10 connections.
 * Target: its p99 under 50 ms, from the first advance until every delivery has failed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon, { type Result } from 'autocannon';
import { type BenchContext, type Scenario, type ScenarioResult, verdict } from './context.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const WEBHOOK_ADVANCE =
  "another account's GET /v1/keys/me while 100 accounts' 10,000 deliveries retry over 3 days";
export const WEBHOOK_P99_MS = 50;
const ACCOUNTS = 100;
const EVENTS = 100;
const ATTEMPTS = 8;

async function control(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/_control${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** A receiver that answers every delivery 500, counting them. */
async function failingReceiver() {
  const state = { received: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received += 1;
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, state, close: () => server.close() };
}

/** Until `done()` or `limitMs`, polling every 50 ms. */
async function waitFor(done: () => boolean, limitMs: number): Promise<boolean> {
  for (const end = performance.now() + limitMs; performance.now() < end; ) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return done();
}

/** 100 events on each of 100 accounts, each delivered once (and failed) to the receiver. */
async function pendingWorld(server: ServerProcess, url: string): Promise<string[]> {
  const accounts: string[] = [];
  for (let a = 0; a < ACCOUNTS; a++) {
    const { account } = await control(server, 'POST', '/accounts', {});
    await control(server, 'POST', `/accounts/${account.id}/webhook_endpoints`, { url });
    const object = { id: `eval_${a}`, object: 'evaluation', status: 'succeeded' };
    for (let e = 0; e < EVENTS; e++)
      await control(server, 'POST', `/accounts/${account.id}/events`, {
        type: 'evaluation.succeeded',
        data: { object },
      });
    accounts.push(account.id);
  }
  return accounts;
}

async function webhookAdvance(ctx: BenchContext): Promise<ScenarioResult> {
  const receiver = await failingReceiver();
  const server = await startEmulator(ctx.pinning, ctx.main);
  try {
    const accounts = await pendingWorld(server, receiver.url);
    const total = ACCOUNTS * EVENTS;
    await waitFor(() => receiver.state.received >= total, 120_000);
    const other = await control(server, 'POST', '/accounts', {});
    const started = performance.now();
    let stop: () => void = () => undefined;
    const load = new Promise<Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: server.url,
          connections: 10,
          duration: 600,
          requests: [
            {
              method: 'GET',
              path: '/v1/keys/me',
              headers: { authorization: `Bearer ${other.key.secret}` },
            },
          ],
        },
        (err, result) => (err ? reject(err) : resolve(result)),
      );
      stop = () => instance.stop();
    });
    const advanceMs = performance.now();
    for (const id of accounts)
      await control(server, 'POST', `/accounts/${id}/clock/advance`, { seconds: 3 * 86_400 });
    const advanced = performance.now() - advanceMs;
    const drained = await waitFor(() => receiver.state.received >= total * ATTEMPTS, 300_000);
    const ms = performance.now() - started;
    stop();
    const result = await load;
    return {
      name: WEBHOOK_ADVANCE,
      p99Ms: result.latency.p99,
      ms,
      non2xx: result.non2xx,
      errors: result.errors,
      notes: `${receiver.state.received} attempts received (${drained ? 'all' : 'not all'} of ${total * ATTEMPTS}) in ${Math.round(ms)} ms; the 100 advances answered in ${Math.round(advanced)} ms; ${result.requests.total} keys/me answered meanwhile`,
    };
  } finally {
    await server.stop();
    receiver.close();
  }
}

export function webhookRetries(): Scenario {
  return {
    name: 'webhooks: retries over a 3-day advance',
    async run(ctx) {
      return [await webhookAdvance(ctx)];
    },
    targets(rows) {
      const r = rows.get(WEBHOOK_ADVANCE);
      return [
        r?.p99Ms === undefined
          ? `${WEBHOOK_ADVANCE}: not measured`
          : `p99 ${WEBHOOK_ADVANCE}: ${r.p99Ms.toFixed(1)} ms (target < ${WEBHOOK_P99_MS} ms: ${verdict(r.p99Ms < WEBHOOK_P99_MS)})`,
      ];
    },
  };
}
