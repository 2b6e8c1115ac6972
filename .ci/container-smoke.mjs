// The container check's smoke sequence (run by .ci/run on the host, with BASE_URL exported):
// the default key answers /v1/keys/me; create an evaluation, move the account's clock past its
// end, download the archive and check that its SHA-256 is the run's `download.sha256`.
import { createHash } from 'node:crypto';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:8710';
const auth = { authorization: 'Bearer svc_test_emulator_default' };
const clock = `${base}/_control/accounts/acct_00000000000000000000000001/clock`;

async function call(method, url, body, headers = {}) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}
const json = async (...args) => (await call(...args)).json();

const me = await json('GET', `${base}/v1/keys/me`, undefined, auth);
console.log(`/v1/keys/me: ${me.id} (${me.scopes.length} scopes)`);

// The image's clock is realtime: make this account's clock manual so the timeline is exact.
await json('PUT', clock, { mode: 'manual' });
const run = await json(
  'POST',
  `${base}/v1/evaluations`,
  { spec: { path: 'specs/pick.yaml', name: 'pick' } },
  auth,
);
console.log(`created ${run.id} (${run.status})`);
const advanced = await json('POST', `${clock}/advance`, { seconds: 10 });
console.log(`advanced to ${advanced.now}: ${advanced.transitions.length} transitions`);
const done = await json('GET', `${base}/v1/evaluations/${run.id}`, undefined, auth);
if (done.status !== 'succeeded') throw new Error(`run is ${done.status}, not succeeded`);
const archive = await call('GET', `${base}/v1/evaluations/${run.id}/archive`, undefined, auth);
const bytes = Buffer.from(await archive.arrayBuffer());
const sha256 = createHash('sha256').update(bytes).digest('hex');
if (sha256 !== done.download.sha256 || bytes.length !== done.download.bytes) {
  throw new Error(
    `archive: ${bytes.length} bytes, sha256 ${sha256}; run says ${JSON.stringify(done.download)}`,
  );
}
console.log(`archive ${bytes.length} bytes, sha256 ${sha256} = download.sha256`);
