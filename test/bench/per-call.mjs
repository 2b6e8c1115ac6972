// What the per-call scripts share (cpu-per-call.mjs, instructions-per-call.mjs, after-quiet.mjs):
// their arguments, the call they measure, the started server's URL and its CPU. Plain JavaScript:
// they run under `node` without a TypeScript loader.
import { readFileSync } from 'node:fs';

/**
 * The script's own flags (before `--`), those after it (for the emulator), and a reader of
 * `--name value` options.
 */
export function parseArgs(argv) {
  const cut = argv.indexOf('--');
  const own = cut < 0 ? argv : argv.slice(0, cut);
  const extra = cut < 0 ? [] : argv.slice(cut + 1);
  const option = (name, fallback) => {
    const i = own.indexOf(name);
    return i < 0 ? fallback : own[i + 1];
  };
  return { own, extra, option };
}

/**
 * The call measured, a new object each time: `GET /v1/keys/me` with the default key, or with
 * `post` the resume of an unknown run with the `{}` body many SDKs send (a 404: nothing written).
 */
export function measuredCall(post) {
  const authorization = 'Bearer svc_test_emulator_default';
  return post
    ? {
        method: 'POST',
        path: '/v1/evaluations/eval_00000000000000000000000000/resume',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      }
    : { method: 'GET', path: '/v1/keys/me', headers: { authorization } };
}

/**
 * The URL a started server prints once it listens (the emulator's banner, the floor's line);
 * `onOutput` is given each chunk of its standard output, then and after.
 */
export function listeningUrl(child, onOutput = () => {}) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      onOutput(chunk);
      out += chunk.toString();
      const found = /listening on (http:\/\/[^\s/]+:\d+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', () => reject(new Error(`exited: ${out}`)));
  });
}

/** utime + stime of process `pid`, in ms (Linux's 100 ticks a second). */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
