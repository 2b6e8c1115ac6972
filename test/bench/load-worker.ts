/**
 * One autocannon run in a worker thread, so the load generator does not share the servers' event
 * loop. Input: a `LoadSpec` as `workerData`; output: one `LoadOutcome` message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import autocannon, { type Options, type RawResult, type Request } from 'autocannon';
import type { LoadOutcome, LoadSpec } from './load.js';

const spec = workerData as LoadSpec;
const ids = spec.ids;
let used = 0;
let exhausted = false;
let instance: { stop(): void } | undefined;

/** Each request takes the next id; none is sent twice unless the pool runs dry (then: stop). */
function nextId(req: Request): Request {
  if (!ids) return req;
  let id = ids[used];
  if (id === undefined) {
    exhausted = true;
    id = ids[ids.length - 1] ?? '';
    setImmediate(() => instance?.stop());
  } else {
    used++;
  }
  return { ...req, path: spec.path.replace('{id}', id) };
}

function post(outcome: LoadOutcome): void {
  parentPort!.postMessage(outcome);
}

try {
  const options: Options = {
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSec,
    pipelining: spec.pipelining,
    requests: [
      {
        method: spec.method,
        path: spec.path,
        headers: spec.headers ?? {},
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(ids ? { setupRequest: nextId } : {}),
      },
    ],
  };
  instance = autocannon(options, (err, result) => {
    if (err) return post({ ok: false, error: err.message });
    // Off the main thread autocannon leaves aggregation to its caller.
    const raw = result as RawResult;
    const { latency } = autocannon.aggregateResult([raw], options);
    const statusCodes: Record<string, number> = {};
    for (const [code, { count }] of Object.entries(raw.statusCodeStats)) {
      statusCodes[code] = count;
    }
    post({
      ok: true,
      stats: {
        // The mean of the per-second samples, as autocannon's `requests.mean`.
        rps: raw.samples > 0 ? raw.totalCompletedRequests / raw.samples : 0,
        p99Ms: latency.p99,
        total: raw.totalCompletedRequests,
        durationSec: raw.duration,
        non2xx: raw.non2xx,
        errors: raw.errors,
        timeouts: raw.timeouts,
        statusCodes,
        idsUsed: used,
        idsExhausted: exhausted,
      },
    });
  });
} catch (err) {
  post({ ok: false, error: (err as Error).message });
}
