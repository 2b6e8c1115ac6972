/**
 * The servers the bench measures, each a child process started as users start it (plain `node`,
 * no tsx), pinned to the servers' core. Their CPU time and memory are read from /proc, so Linux
 * only; elsewhere those figures are left out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Pinning } from './pinning.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = new URL('./memory-probe.mjs', import.meta.url).href;
const FLOOR = fileURLToPath(new URL('./floor.mjs', import.meta.url));
/** Linux's USER_HZ: /proc reports CPU times in these ticks. */
const TICKS_PER_SECOND = 100;
const START_TIMEOUT_MS = 30_000;

export interface ServerProcess {
  url: string;
  /** CPU time (user and system, every thread) the process has used so far, in ms. */
  cpuMs(): number | undefined;
  /** Resident memory now and at its peak, in MB. */
  memory(): { rssMb: number; peakMb: number } | undefined;
  /** `process.memoryUsage()` inside the server, over the IPC channel of the preloaded probe. */
  usage(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

/** `node <args>` under the pinning prefix, with the probe preloaded; resolves once it listens. */
export function startServer(pinning: Pinning, args: string[]): Promise<ServerProcess> {
  const [file, ...rest] = [...pinning.prefix, process.execPath, '--import', PROBE, ...args];
  const child = spawn(file!, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return printedUrl(child, START_TIMEOUT_MS).then((url) => ({
    url,
    cpuMs: () => cpuMsOf(child.pid!),
    memory: () => memoryOf(child.pid!),
    usage: () => usageOf(child),
    stop: () => {
      child.kill('SIGKILL');
      return exited;
    },
  }));
}

/** The floor (floor.mjs) answering `body` on `GET /v1/keys/me`. */
export function startFloor(pinning: Pinning, body: string): Promise<ServerProcess> {
  return startServer(pinning, [FLOOR, body]);
}

/**
 * The compiled emulator as users start it (`node dist/main.js`, see compiled-package.ts) on a free
 * loopback port, with manual clocks and seed 0; `extra` adds flags (e.g. `--db /tmp/world.db`).
 */
export function startEmulator(
  pinning: Pinning,
  main: string,
  extra: string[] = [],
): Promise<ServerProcess> {
  const flags = ['--port', '0', '--host', '127.0.0.1', '--clock', 'manual', '--seed', '0'];
  return startServer(pinning, [main, ...flags, ...extra]);
}

/**
 * Resolves with the first `listening on <url>` the child prints (the emulator's banner, the
 * floor's line), then keeps reading its output so that it never blocks on a full pipe.
 */
export function printedUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let found = false;
    const timer = setTimeout(
      () => reject(new Error(`no URL in ${timeoutMs} ms: ${out}`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      if (found) return;
      out += chunk.toString();
      const url = /listening on (http:\/\/[^\s/]+:\d+)/.exec(out)?.[1];
      if (!url) return;
      found = true;
      clearTimeout(timer);
      resolve(url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening: ${out}`));
    });
  });
}

function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the `(comm)`: state is the first; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

function usageOf(child: ChildProcess): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve) => {
    child.once('message', (m: { usage: NodeJS.MemoryUsage }) => resolve(m.usage));
    child.send('usage');
  });
}
