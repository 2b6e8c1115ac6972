// What the per-call scripts share (cpu-per-call.mjs, instructions-per-call.mjs): their arguments
// and the call they measure. Plain JavaScript: they run under `node` without a TypeScript loader.

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
