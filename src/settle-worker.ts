/**
 * The entry of a settle worker thread (engine/settle-pool.ts starts it): answers each job of the
 * pool (engine/settle-jobs.ts) with the registered kinds and the catalog it was given, an
 * archive's bytes moved to the event loop's thread rather than copied. It sits beside
 * emulator.ts, above the kinds it imports: built as dist/settle-worker.js (one bundle, for the
 * bin, the CommonJS entries and the library alike), run through tsx from src/.
 */
import { parentPort, type Transferable, workerData } from 'node:worker_threads';
import { runJob, type SettleJob } from './engine/settle-jobs.js';
import type { SettleWorkerData } from './engine/settle-pool.js';
import type { WorkerReply } from './engine/worker-pool.js';
import { REGISTERED_KINDS } from './kinds/index.js';

function serve(): void {
  const port = parentPort;
  if (!port) throw new Error('settle-worker.ts runs as a worker thread (engine/settle-pool.ts)');
  const { catalog } = workerData as SettleWorkerData;
  const kinds = Object.fromEntries(REGISTERED_KINDS.map(({ kind }) => [kind.name, kind]));
  port.on('message', ({ id, input }: { id: number; input: SettleJob }) => {
    let reply: WorkerReply;
    const transfer: Transferable[] = [];
    try {
      const value = runJob(input, kinds, catalog);
      if (!Array.isArray(value) && 'bytes' in value) {
        const own = ownBuffer(value.bytes);
        value.bytes = own;
        const { paths, ends, sizes, sha256 } = value.listing;
        transfer.push(own.buffer, paths.buffer, ends.buffer, sizes.buffer, sha256.buffer);
      }
      reply = { id, ok: true, value };
    } catch (err) {
      reply = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply, transfer);
  });
}

/** `bytes` alone in its ArrayBuffer, which can then be moved (zlib may answer a view of more). */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes;
  const whole = buffer instanceof ArrayBuffer && bytes.byteOffset === 0;
  return whole && buffer.byteLength === bytes.length
    ? new Uint8Array(buffer)
    : new Uint8Array(bytes);
}

serve();
