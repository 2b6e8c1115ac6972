// What the per-call scripts share (cpu-per-call.mjs, instructions-per-call.mjs, after-quiet.mjs):
// their arguments, the call they measure and its loads, the started server's URL and its CPU.
// Plain JavaScript: they run under `node` without a TypeScript loader.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

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
 * `post` the resume of an unknown run with the `{}` body many SDKs send (a 404: nothing written),
 * or with `post` and `bare` the same without a body; `secret` another key's (or none's: a 401);
 * `getPath` a GET of another path.
 */
export function measuredCall(
  post,
  bare = false,
  secret = 'svc_test_emulator_default',
  getPath = '/v1/keys/me',
) {
  const authorization = `Bearer ${secret}`;
  if (!post) return { method: 'GET', path: getPath, headers: { authorization } };
  const path = '/v1/evaluations/eval_00000000000000000000000000/resume';
  if (bare) return { method: 'POST', path, headers: { authorization } };
  return {
    method: 'POST',
    path,
    headers: { authorization, 'content-type': 'application/json' },
    body: '{}',
  };
}

/**
 * The call the script's flags name: `--post [--bare]` and `--secret S` as `measuredCall` takes
 * them, `--path P` a GET of P, `--scopes S` the secret of a new key of the default account with
 * only the scopes S (comma-separated): `--path /v1/evaluations --scopes usage:read` is the bench's
 * 403; `--fault N` sends `X-Emulator-Fault: N` (`--fault 429` is the bench's 429).
 */
export async function flaggedCall(url, own, option) {
  const scopes = option('--scopes', undefined);
  const secret = scopes
    ? (
        await control(url, 'POST', '/accounts/acct_00000000000000000000000001/keys', {
          name: 'per-call scoped',
          scopes: scopes.split(','),
        })
      ).secret
    : option('--secret', undefined);
  const call = measuredCall(
    own.includes('--post'),
    own.includes('--bare'),
    secret,
    option('--path'),
  );
  const fault = option('--fault', undefined);
  return fault ? { ...call, headers: { ...call.headers, 'x-emulator-fault': fault } } : call;
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

const WRITER = 'acct_cpuwrites';

async function control(url, method, path, body) {
  const res = await fetch(`${url}/_control${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** `amount` failed runs of the writer account, each resumable once. */
async function seedRuns(url, amount) {
  const ids = [];
  const body = JSON.stringify({
    spec: { path: 'bench/spec.yaml', name: 'bench' },
    status: 'failed',
  });
  await autocannon({
    url,
    connections: 50,
    amount,
    requests: [
      {
        method: 'POST',
        path: `/_control/accounts/${WRITER}/evaluations`,
        headers: { 'content-type': 'application/json' },
        body,
        onResponse: (status, text) => status === 201 && ids.push(JSON.parse(text).id),
      },
    ],
  });
  if (ids.length < amount) throw new Error(`seeded ${ids.length} of ${amount} runs`);
  return ids;
}

/**
 * `prepare(amount)`, which answers a load of `amount` calls of `request` over 50 connections to
 * run. With `resume` the call becomes a real resume (a failed run back to `queued`) of an account
 * of its own (the request's body, if any, kept), and `prepare` seeds its runs first: untimed, and
 * for instructions-per-call.mjs uncounted.
 */
export async function loadsOf(url, request, { resume = false, timeout = 30 } = {}) {
  const run = (amount, requests) => () =>
    autocannon({ url, connections: 50, amount, requests, timeout });
  if (!resume) return async (amount) => run(amount, [request]);
  const { key } = await control(url, 'POST', '/accounts', {
    id: WRITER,
    name: 'cpu writes',
    token_balance: 1_000_000_000_000,
    clock: { mode: 'manual' },
  });
  const resumes = {
    ...request,
    method: 'POST',
    path: '/v1/evaluations/{id}/resume',
    headers: { ...request.headers, authorization: `Bearer ${key.secret}` },
  };
  return async (amount) => {
    const ids = await seedRuns(url, amount);
    let next = 0;
    const setupRequest = (req) => ({ ...req, path: req.path.replace('{id}', ids[next++]) });
    return run(amount, [{ ...resumes, setupRequest }]);
  };
}
