import autocannon, { type Options, type Request } from 'autocannon';
import type { ServerProcess } from './server-process.js';

/** One request of a load; a path may hold `{id}` (see `LoadSpec.ids`). */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One bounded autocannon run against a server process. */
export interface LoadSpec {
  server: ServerProcess;
  /** Each connection sends these in turn, round after round. */
  requests: LoadRequest[];
  connections: number;
  durationSec: number;
  /** One id per request for `{id}`, in order, each sent at most once (for state-changing calls). */
  ids?: string[];
}

export interface LoadStats {
  /** Mean of the per-second request counts. */
  rps: number;
  p99Ms: number;
  total: number;
  durationSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** How many of `ids` were taken (the last few may never have been sent). */
  idsUsed: number;
  /** The pool ran dry and an id was sent twice; the run was stopped early. */
  idsExhausted: boolean;
  /** The server's CPU time per completed request, in microseconds (Linux only). */
  cpuUsPerReq?: number;
  /** The server's CPU time over the run's wall time: near 1 when the server is the limit. */
  serverBusy?: number;
  /** The same of this process, the load generator: near 1 when it is the limit. */
  loadBusy: number;
}

/** Runs autocannon in this process (on the load generator's core) and reads the server's CPU. */
export function load(spec: LoadSpec): Promise<LoadStats> {
  const { ids } = spec;
  let used = 0;
  let exhausted = false;
  let instance: { stop(): void } | undefined;
  // Each request takes the next id; none is sent twice unless the pool runs dry (then: stop).
  const nextId = (req: Request): Request => {
    let id = ids![used];
    if (id === undefined) {
      exhausted = true;
      id = ids!.at(-1) ?? '';
      setImmediate(() => instance?.stop());
    } else {
      used++;
    }
    return { ...req, path: req.path!.replace('{id}', id) };
  };
  const options: Options = {
    url: spec.server.url,
    connections: spec.connections,
    duration: spec.durationSec,
    requests: spec.requests.map((r) => ({
      method: r.method,
      path: r.path,
      headers: r.headers ?? {},
      ...(r.body === undefined ? {} : { body: r.body }),
      ...(ids && r.path.includes('{id}') ? { setupRequest: nextId } : {}),
    })),
  };
  const cpuBefore = spec.server.cpuMs();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    instance = autocannon(options, (err, result) => {
      if (err) return reject(new Error(`autocannon: ${err.message}`));
      const wallMs = performance.now() - started;
      const cpuAfter = spec.server.cpuMs();
      const own = process.cpuUsage(ownBefore);
      const statusCodes: Record<string, number> = {};
      for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
        statusCodes[code] = count;
      }
      const stats: LoadStats = {
        rps: result.requests.mean,
        p99Ms: result.latency.p99,
        total: result.requests.total,
        durationSec: result.duration,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statusCodes,
        idsUsed: used,
        idsExhausted: exhausted,
        loadBusy: (own.user + own.system) / 1000 / wallMs,
      };
      if (cpuBefore !== undefined && cpuAfter !== undefined && stats.total > 0) {
        stats.cpuUsPerReq = ((cpuAfter - cpuBefore) * 1000) / stats.total;
        stats.serverBusy = (cpuAfter - cpuBefore) / wallMs;
      }
      resolve(stats);
    });
  });
}

export const WARMUP_SEC = 1;

/**
 * Sends `count` copies of one request (50 at a time) and answers the `id` of every 201 answer, in
 * no particular order: seeds runs through the control API faster than one call at a time.
 */
export function seed(
  server: ServerProcess,
  request: LoadRequest,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  const failures: string[] = [];
  const options: Options = {
    url: server.url,
    connections: Math.min(50, count),
    amount: count,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: { 'content-type': 'application/json', ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
        onResponse: (status, body) => {
          if (status === 201) ids.push((JSON.parse(body) as { id: string }).id);
          else if (failures.length < 3) failures.push(`${status} ${body.slice(0, 200)}`);
        },
      },
    ],
  };
  return new Promise((resolve, reject) => {
    autocannon(options, (err) => {
      if (err) return reject(new Error(`autocannon: ${err.message}`));
      if (ids.length < count) {
        const what = `${request.method} ${request.path}`;
        return reject(
          new Error(`${what}: ${ids.length}/${count} created; ${failures.join(' | ')}`),
        );
      }
      resolve(ids);
    });
  });
}
