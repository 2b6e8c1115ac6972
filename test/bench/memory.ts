/**
 * What the memory scenarios share. Each starts an emulator of its own (so that its RSS holds only
 * what its load left) as users start it, `node dist/main.js`; the bench's own process holds the
 * load generator, so its RSS says nothing. RSS is read from /proc (Linux only); the preloaded
 * probe (memory-probe.mjs) tells how much of it is V8's heap, buffers and native memory.
 * BENCH_MEMORY_ARGS adds flags to these emulators' command line (e.g. `--db /tmp/world.db`).
 */
import type { BenchContext } from './context.js';
import { type ServerProcess, startEmulator } from './server-process.js';

const MB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** A fresh emulator for a memory scenario, with BENCH_MEMORY_ARGS. */
export function memoryEmulator(ctx: BenchContext): Promise<ServerProcess> {
  const extra = (process.env.BENCH_MEMORY_ARGS ?? '').split(' ').filter(Boolean);
  return startEmulator(ctx.pinning, ctx.main, extra);
}

/** `flags ...; ` when BENCH_MEMORY_ARGS gave any, for the notes. */
export function memoryFlags(): string {
  const flags = process.env.BENCH_MEMORY_ARGS?.trim();
  return flags ? `flags ${flags}; ` : '';
}

/** The server's RSS in MB now, or undefined off Linux. */
export function rssMb(server: ServerProcess): number | undefined {
  return server.memory()?.rssMb;
}

/** The peak RSS and what V8 says of the memory: heap, buffers and the native rest. */
export async function split(server: ServerProcess): Promise<string> {
  const u = await server.usage();
  const peak = server.memory()?.peakMb;
  return (
    (peak === undefined ? '' : `peak ${Math.round(peak)} MB; `) +
    `heap ${mb(u.heapUsed)} of ${mb(u.heapTotal)}, external ${mb(u.external)} ` +
    `(buffers ${mb(u.arrayBuffers)}), native rest ${mb(u.rss - u.heapTotal - u.external)}`
  );
}
