/**
 * Issue 36 item 2: a receiver that never answers holds only its own endpoint. 100 accounts each
 * have 50 endpoints at a receiver that reads every delivery and never answers; one event on each
 * account makes 5,000 attempts that hang (until `--webhook-timeout`, 10 s). Right after, another
 * account's event goes to a receiver that answers 204 at once.
 * Target: that receiver has its delivery within 1 s of the event being fired.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type BenchContext,
  control,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import { rssMb } from './memory.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const WEBHOOK_FAIRNESS =
  "a healthy receiver's first attempt behind 5,000 hanging endpoints of 100 other accounts";
export const WEBHOOK_FAIRNESS_MS = 1000;
const ACCOUNTS = 100;
const ENDPOINTS = 50;
/** How long the bench waits for the healthy delivery before it reports it missing. */
const GIVE_UP_MS = 200_000;

/** A receiver on a port of its own; `answer` false: it reads each delivery and never answers. */
async function receiver(answer: boolean) {
  const state = { received: 0, firstAt: 0 };
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      state.received += 1;
      if (state.firstAt === 0) state.firstAt = performance.now();
      if (answer) res.writeHead(204).end();
      else held.push(res);
    });
  });
  server.maxConnections = 20_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 1024, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    state,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Until `done()` or `limitMs`, polling every 10 ms. */
async function waitFor(done: () => boolean, limitMs: number): Promise<boolean> {
  for (const end = performance.now() + limitMs; performance.now() < end; ) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return done();
}

type Account = { account: { id: string } };

async function accountWith(server: ServerProcess, url: string, endpoints: number) {
  const { account } = await control<Account>(server, 'POST', '/accounts', {});
  for (let e = 0; e < endpoints; e++)
    await control(server, 'POST', `/accounts/${account.id}/webhook_endpoints`, { url });
  return account.id;
}

const fire = (server: ServerProcess, accountId: string) =>
  control(server, 'POST', `/accounts/${accountId}/events`, {
    type: 'evaluation.succeeded',
    data: { object: { id: 'eval_1', object: 'evaluation', status: 'succeeded' } },
  });

async function healthyBehindHanging(ctx: BenchContext): Promise<ScenarioResult> {
  const hanging = await receiver(false);
  const healthy = await receiver(true);
  const server = await startEmulator(ctx.pinning, ctx.main);
  try {
    const accounts: string[] = [];
    for (let a = 0; a < ACCOUNTS; a++)
      accounts.push(await accountWith(server, hanging.url, ENDPOINTS));
    const other = await accountWith(server, healthy.url, 1);
    const idle = rssMb(server);
    const started = performance.now();
    for (const id of accounts) await fire(server, id);
    const fired = performance.now();
    await fire(server, other);
    const delivered = await waitFor(() => healthy.state.received > 0, GIVE_UP_MS);
    const ms = delivered ? healthy.state.firstAt - fired : undefined;
    const hangingThen = hanging.state.received;
    const all = ACCOUNTS * ENDPOINTS;
    const allSent = await waitFor(() => hanging.state.received >= all, 30_000);
    const sentMs = performance.now() - started;
    const under = rssMb(server);
    return {
      name: WEBHOOK_FAIRNESS,
      ...(ms === undefined ? {} : { ms }),
      ...(under === undefined ? {} : { rssMb: under }),
      non2xx: 0,
      errors: delivered ? 0 : 1,
      notes:
        `${delivered ? '' : `not delivered within ${GIVE_UP_MS / 1000} s; `}` +
        `the 100 events fired in ${Math.round(fired - started)} ms; ${hangingThen} hanging requests received before the healthy one; ` +
        `${hanging.state.received} of ${all} hanging requests received ${allSent ? 'in' : 'after'} ${Math.round(sentMs)} ms; ` +
        `RSS ${Math.round(idle ?? 0)} MB before, ${Math.round(under ?? 0)} MB with them open`,
    };
  } finally {
    await server.stop();
    hanging.close();
    healthy.close();
  }
}

export function webhookFairness(): Scenario {
  return {
    name: 'webhooks: a healthy receiver behind hanging ones',
    async run(ctx) {
      return [await healthyBehindHanging(ctx)];
    },
    targets(rows) {
      const r = rows.get(WEBHOOK_FAIRNESS);
      return [
        r?.ms === undefined
          ? `${WEBHOOK_FAIRNESS}: not delivered (target < ${WEBHOOK_FAIRNESS_MS} ms: ${verdict(false)})`
          : `${WEBHOOK_FAIRNESS}: ${Math.round(r.ms)} ms (target < ${WEBHOOK_FAIRNESS_MS} ms: ${verdict(r.ms < WEBHOOK_FAIRNESS_MS)})`,
      ];
    },
  };
}
