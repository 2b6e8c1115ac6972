/**
 * Issue 27: one client does not stall or sink the emulator for the others.
 * - Stall: account A holds 100 evaluations of 10,000 episodes that all end at one instant, and
 *   advances its clock 3 hours; meanwhile account B's `GET /v1/keys/me` runs at 10 connections.
 *   Target: B's p99 during the advance under 50 ms.
 * - A client that pipelines 400 list requests of about 1 MB answers and never reads. Target: the
 *   emulator's RSS under it at most 50 MB above idle.
 * Each starts an emulator of its own.
 */
import { connect } from 'node:net';
import autocannon from 'autocannon';
import { type BenchContext, type Scenario, type ScenarioResult, verdict } from './context.js';
import { seed } from './load.js';
import { rssMb } from './memory.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const STALL = "another account's GET /v1/keys/me during a 100 x 10,000-episode advance";
export const STALL_P99_MS = 50;
export const PIPELINING = 'RSS under a client that pipelines 400 1 MB answers and never reads';
export const PIPELINING_MB = 50;

async function control(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/_control${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** B's keys/me load until `until` settles; its p99 and count. */
function loadUntil(server: ServerProcess, secret: string, until: Promise<unknown>) {
  return new Promise<{ p99: number; total: number; non2xx: number }>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections: 10,
        duration: 600,
        requests: [
          { method: 'GET', path: '/v1/keys/me', headers: { authorization: `Bearer ${secret}` } },
        ],
      },
      (err, result) => {
        if (err) reject(err);
        else
          resolve({ p99: result.latency.p99, total: result.requests.total, non2xx: result.non2xx });
      },
    );
    // Stopped however `until` ends; its failure is its caller's to tell.
    const stop = () => instance.stop();
    until.then(stop, stop);
  });
}

async function stall(ctx: BenchContext): Promise<ScenarioResult> {
  const server = await startEmulator(ctx.pinning, ctx.main);
  try {
    const a = await control(server, 'POST', '/accounts', { token_balance: 100_000_000 });
    const b = await control(server, 'POST', '/accounts', {});
    const body = JSON.stringify({
      spec: { path: 's.yaml', name: 'long' },
      options: { episodes: 10_000 },
    });
    const auth = { authorization: `Bearer ${a.key.secret}` };
    const ids = await seed(
      server,
      { method: 'POST', path: '/v1/evaluations', headers: auth, body },
      100,
    );
    const started = performance.now();
    const advance = control(server, 'POST', `/accounts/${a.account.id}/clock/advance`, {
      seconds: 10_800,
    });
    const b99 = await loadUntil(server, b.key.secret, advance);
    const advanced = await advance;
    const ms = performance.now() - started;
    const succeeded = advanced.transitions.filter(
      (t: { to: string }) => t.to === 'succeeded',
    ).length;
    return {
      name: STALL,
      p99Ms: b99.p99,
      ms,
      non2xx: b99.non2xx,
      errors: 0,
      notes: `${ids.length} runs, ${succeeded} succeeded in an advance of ${Math.round(ms)} ms; ${b99.total} keys/me answered meanwhile`,
    };
  } finally {
    await server.stop();
  }
}

async function pipelining(ctx: BenchContext): Promise<ScenarioResult> {
  const server = await startEmulator(ctx.pinning, ctx.main);
  try {
    const a = await control(server, 'POST', '/accounts', {});
    const auth = { authorization: `Bearer ${a.key.secret}` };
    const body = JSON.stringify({ spec: { path: 's.yaml', name: 'n', note: 'x'.repeat(10_000) } });
    await seed(server, { method: 'POST', path: '/v1/evaluations', headers: auth, body }, 100);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMb(server) ?? 0;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    const request = `GET /v1/evaluations?limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.key.secret}\r\n\r\n`;
    socket.write(request.repeat(400));
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const under = rssMb(server) ?? 0;
    socket.destroy();
    return {
      name: PIPELINING,
      rssMb: under,
      non2xx: 0,
      errors: 0,
      notes: `idle ${Math.round(idle)} MB, ${Math.round(under)} MB with the client connected 5 s`,
      rounds: undefined,
      ms: under - idle,
    };
  } finally {
    await server.stop();
  }
}

export function isolation(): Scenario {
  return {
    name: 'isolation: stall and pipelining',
    async run(ctx) {
      return [await stall(ctx), await pipelining(ctx)];
    },
    targets(rows) {
      const s = rows.get(STALL);
      const p = rows.get(PIPELINING);
      return [
        s?.p99Ms === undefined
          ? `${STALL}: not measured`
          : `p99 ${STALL}: ${s.p99Ms.toFixed(1)} ms (target < ${STALL_P99_MS} ms: ${verdict(s.p99Ms < STALL_P99_MS)}; the advance took ${Math.round(s.ms ?? 0)} ms)`,
        p?.ms === undefined
          ? `${PIPELINING}: not measured`
          : `${PIPELINING}: ${p.ms.toFixed(1)} MB above idle (target <= ${PIPELINING_MB} MB: ${verdict(p.ms <= PIPELINING_MB)})`,
      ];
    },
  };
}
