/**
 * Issue 36 item 8: slow clients are closed by the server's timeouts, each holding bounded memory,
 * while other clients are served. An emulator of its own, with its default timeouts; `GET
 * /v1/keys/me` at 50 connections alone, then with 200 connections of each kind open:
 * - slowloris: a request line, then one header line every 5 s, the headers never ended;
 * - slow body: a POST whose headers promise 1,000,000 bytes, sent 1,000 bytes a second;
 * - non-reading: keys/me requests pipelined without end, no answer read.
 * Each row says how many of the 200 the server closed, and when; RSS is read with them open.
 * Targets: with slowloris or slow bodies open, keys/me at least 0.8x of alone and RSS at most 50 MB
 * over the load alone; every slowloris closed within 25 s and every slow body within 65 s (the
 * default `--headers-timeout` and `--request-timeout`, 5 s to spare). The bench waits for them at
 * most `BENCH_SLOW_WAIT_SEC` (90). The non-reading ones asked for answers, which the server makes
 * until the kernel's buffers are full: keys/me shares the server with that work, its ratio is
 * shown without a target; their RSS at most 2 MB a connection over the load alone (what one read
 * of their requests, 64 KiB, takes parsed and waiting: src/http/backpressure.ts).
 */
import { connect, type Socket } from 'node:net';
import {
  AUTH,
  type BenchContext,
  KEYS_ME,
  positiveFromEnv,
  type Scenario,
  type ScenarioResult,
  verdict,
} from './context.js';
import { load, WARMUP_SEC } from './load.js';
import { rssMb } from './memory.js';
import { type ServerProcess, startEmulator } from './server-process.js';

export const ALONE = 'GET /v1/keys/me, no slow client';
const SLOW_KINDS = {
  slowloris: 'with 200 connections sending headers slowly (slowloris)',
  body: 'with 200 connections sending a body slowly',
  reader: 'with 200 connections pipelining requests, reading no answer',
} as const;
type SlowKind = keyof typeof SLOW_KINDS;
export const SLOW_CONNECTIONS = 200;
const RATIO = 0.8;
const RSS_GROWTH_MB = 50;
/** The non-reading kind's RSS over the load alone, a connection. */
const READER_MB_EACH = 2;
const CLOSED_WITHIN_SEC: Partial<Record<SlowKind, number>> = { slowloris: 25, body: 65 };

/** The slow connections of one kind, and when the server closed each. */
function openSlow(server: ServerProcess, kind: SlowKind) {
  const { port } = new URL(server.url);
  const started = performance.now();
  const closedAt: number[] = [];
  const sockets: Socket[] = [];
  const host = 'Host: 127.0.0.1\r\n';
  const keysMe = `GET /v1/keys/me HTTP/1.1\r\n${host}Authorization: ${AUTH.authorization}\r\n\r\n`;
  for (let i = 0; i < SLOW_CONNECTIONS; i++) {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => closedAt.push(performance.now() - started));
    if (kind === 'reader') socket.pause();
    else socket.resume();
    if (kind === 'slowloris') socket.write(`GET /v1/keys/me HTTP/1.1\r\n${host}`);
    if (kind === 'body')
      socket.write(
        `POST /v1/evaluations HTTP/1.1\r\n${host}Authorization: ${AUTH.authorization}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"spec":"',
      );
    sockets.push(socket);
  }
  const step = () => {
    for (const s of sockets) {
      if (s.destroyed) continue;
      if (kind === 'slowloris') s.write('X-Slow: 1\r\n');
      else if (kind === 'body') s.write('a'.repeat(1000));
      else while (s.writableLength < 64 * 1024) s.write(keysMe.repeat(50));
    }
  };
  const timer = setInterval(step, kind === 'slowloris' ? 5000 : kind === 'body' ? 1000 : 50);
  return {
    closedAt,
    stop: () => {
      clearInterval(timer);
      for (const s of sockets) s.destroy();
    },
  };
}

/** Until every connection closed, or `limitMs`. */
async function closedWithin(closedAt: number[], limitMs: number): Promise<void> {
  for (const end = performance.now() + limitMs; performance.now() < end; ) {
    if (closedAt.length >= SLOW_CONNECTIONS) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function keysMe(ctx: BenchContext, server: ServerProcess) {
  await load({
    server,
    requests: [KEYS_ME],
    connections: ctx.load.connections,
    durationSec: WARMUP_SEC,
  });
  return load({
    server,
    requests: [KEYS_ME],
    connections: ctx.load.connections,
    durationSec: ctx.load.durationSec,
  });
}

async function underSlow(ctx: BenchContext, kind: SlowKind, idle: number): Promise<ScenarioResult> {
  const server = await startEmulator(ctx.pinning, ctx.main);
  try {
    await keysMe(ctx, server);
    const slow = openSlow(server, kind);
    try {
      const stats = await keysMe(ctx, server);
      const rss = rssMb(server);
      const waitSec = positiveFromEnv('BENCH_SLOW_WAIT_SEC', 90);
      if (kind !== 'reader') await closedWithin(slow.closedAt, waitSec * 1000);
      const closed = slow.closedAt.length;
      const last = closed > 0 ? (Math.max(...slow.closedAt) / 1000).toFixed(1) : '-';
      return {
        name: `${ALONE.split(',')[0]} ${SLOW_KINDS[kind]}`,
        rps: stats.rps,
        p99Ms: stats.p99Ms,
        ...(rss === undefined ? {} : { rssMb: rss }),
        non2xx: stats.non2xx,
        errors: stats.errors + stats.timeouts,
        // `ms`: when the server had closed all 200; unset when it had not within the wait.
        ...(kind !== 'reader' && closed === SLOW_CONNECTIONS
          ? { ms: Math.max(...slow.closedAt) }
          : {}),
        notes:
          `${closed} of ${SLOW_CONNECTIONS} closed by the server` +
          (kind === 'reader'
            ? ` during the load; `
            : ` within ${waitSec} s (the last after ${last} s); `) +
          `RSS ${Math.round(rss ?? 0)} MB with them open (${Math.round((rss ?? 0) - idle)} MB over idle)`,
      };
    } finally {
      slow.stop();
    }
  } finally {
    await server.stop();
  }
}

async function alone(ctx: BenchContext): Promise<ScenarioResult> {
  const server = await startEmulator(ctx.pinning, ctx.main);
  try {
    await keysMe(ctx, server);
    const stats = await keysMe(ctx, server);
    const rss = rssMb(server);
    return {
      name: ALONE,
      rps: stats.rps,
      p99Ms: stats.p99Ms,
      ...(rss === undefined ? {} : { rssMb: rss }),
      non2xx: stats.non2xx,
      errors: stats.errors + stats.timeouts,
      notes: `RSS ${Math.round(rss ?? 0)} MB after the load`,
    };
  } finally {
    await server.stop();
  }
}

export function slowClients(): Scenario {
  return {
    name: 'slow clients: slowloris, slow bodies, non-reading',
    async run(ctx) {
      const base = await alone(ctx);
      const rows = [base];
      for (const kind of Object.keys(SLOW_KINDS) as SlowKind[])
        rows.push(await underSlow(ctx, kind, base.rssMb ?? 0));
      return rows;
    },
    targets(rows) {
      const base = rows.get(ALONE);
      const lines: string[] = [];
      for (const [kind, label] of Object.entries(SLOW_KINDS)) {
        const r = rows.get(`${ALONE.split(',')[0]} ${label}`);
        if (r?.rps === undefined || !base?.rps) {
          lines.push(`keys/me ${label}: not measured`);
          continue;
        }
        const ratio = r.rps / base.rps;
        const reader = kind === 'reader';
        lines.push(
          reader
            ? `keys/me ${label}: ${ratio.toFixed(2)}x of alone (no target: the server answers their requests too)`
            : `keys/me ${label}: ${ratio.toFixed(2)}x of alone (target >= ${RATIO}x: ${verdict(ratio >= RATIO)})`,
        );
        const growth = (r.rssMb ?? 0) - (base.rssMb ?? 0);
        const most = reader ? READER_MB_EACH * SLOW_CONNECTIONS : RSS_GROWTH_MB;
        lines.push(
          `RSS ${label}: ${Math.round(growth)} MB over the load alone (target <= ${most} MB${reader ? `, ${READER_MB_EACH} MB a connection` : ''}: ${verdict(growth <= most)})`,
        );
        const within = CLOSED_WITHIN_SEC[kind as SlowKind];
        if (within !== undefined)
          lines.push(
            r.ms === undefined
              ? `${label}: not all closed by the server (target: within ${within} s: ${verdict(false)})`
              : `${label}: all closed by the server after ${(r.ms / 1000).toFixed(1)} s (target: within ${within} s: ${verdict(r.ms <= within * 1000)})`,
          );
      }
      return lines;
    },
  };
}
