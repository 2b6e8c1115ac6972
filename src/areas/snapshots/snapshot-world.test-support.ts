/**
 * A world with something of everything a snapshot keeps, and a script of calls whose answers
 * a restore must reproduce byte for byte. Shared by the snapshot tests.
 */
import { expect } from 'vitest';
import { DEFAULT_ACCOUNT, DEFAULT_SECRET } from '../../../test/helpers.js';

/** Answers a call as sent: status, headers and body bytes. */
export interface Exchange {
  call: string;
  status: number;
  headers: [string, string][];
  body: string;
}

/** Headers of the transport (a real server's) or of timing, not of the answer itself. */
const TRANSPORT = ['date', 'connection', 'keep-alive', 'content-length', 'server-timing'];

/** Something that answers `Request`s: an app in this process, or a server's fetch. */
export type Requester = (path: string, init?: RequestInit) => Response | Promise<Response>;

export const SPEC = { path: 'specs/pick_place.py', name: 'pick_place' };
export const COLLECTIONS = [
  'augmentations',
  'training_runs',
  'twins',
  'rl_runs',
  'evaluations',
  'scenario_runs',
];
/** An account of the world with a rate limit and a key of its own. */
export const LIMITED = { id: 'acct_limited', secret: 'svc_test_limited_key_0001' };

/** A JSON call; throws unless 2xx. */
export async function call(request: Requester, method: string, path: string, body?: unknown) {
  const res = await request(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * On the `every-kind` scenario: runs of every kind part-way, a created run with an
 * Idempotency-Key, fault rules (with a probability, skip and times), a webhook endpoint, an
 * account with a rate limit and a scaled clock, a revoked key. Answers the ids the script uses.
 */
export async function buildWorld(request: Requester) {
  const ctl = (method: string, path: string, body?: unknown) =>
    call(request, method, `/_control${path}`, body);
  await ctl('POST', `/accounts/${DEFAULT_ACCOUNT}/clock/advance`, { seconds: 2 });
  const created = await request('/v1/evaluations', {
    method: 'POST',
    headers: product(DEFAULT_SECRET, { 'idempotency-key': 'build-1' }),
    body: JSON.stringify({ spec: SPEC, label: 'built' }),
  });
  expect(created.status).toBe(201);
  const evaluation = ((await created.json()) as { id: string }).id;
  await ctl('POST', `/accounts/${DEFAULT_ACCOUNT}/webhook_endpoints`, {
    url: 'http://127.0.0.1:9/hooks',
  });
  await ctl('POST', '/faults', {
    match: { operation: 'getEvaluation' },
    respond: { status: 502 },
    probability: 0.5,
  });
  await ctl('POST', '/faults', {
    match: { route: '/v1/keys/me', account: DEFAULT_ACCOUNT },
    respond: { status: 429, retry_after: 3 },
    skip: 1,
    times: 2,
  });
  await ctl('POST', '/accounts', {
    id: LIMITED.id,
    limits: { requests_per_minute: 3 },
    clock: { mode: 'manual' },
  });
  await ctl('POST', `/accounts/${LIMITED.id}/keys`, {
    name: 'ci',
    scopes: ['evaluations:write'],
    secret: LIMITED.secret,
  });
  const revoked = await ctl('POST', `/accounts/${LIMITED.id}/keys`, {
    name: 'old',
    scopes: ['evaluations:read'],
  });
  await ctl('POST', `/keys/${revoked.id}/revoke`);
  for (let i = 0; i < 2; i++) await request('/v1/keys/me', { headers: product(LIMITED.secret) });
  await request('/v1/keys/me', { headers: product(DEFAULT_SECRET) });
  return { evaluation };
}

function product(secret: string, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...extra };
}

/**
 * Product and control calls over every part a restore brings back: faults and their draws,
 * replays, ids, rate windows, clocks, runs of every kind, archives, events and the journal.
 */
export async function script(request: Requester, ids: { evaluation: string }) {
  const out: Exchange[] = [];
  const send = async (name: string, path: string, init: RequestInit = {}) => {
    const res = await request(path, init);
    const body = Buffer.from(await res.arrayBuffer()).toString('base64');
    const headers = [...res.headers.entries()].filter(([h]) => !TRANSPORT.includes(h));
    out.push({ call: name, status: res.status, headers, body });
  };
  const get = (path: string, secret = DEFAULT_SECRET) =>
    send(`GET ${path}`, path, { headers: product(secret) });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(`POST ${path}`, path, {
      method: 'POST',
      headers: product(DEFAULT_SECRET, headers),
      body: JSON.stringify(body),
    });
  for (let i = 0; i < 4; i++) await get('/v1/keys/me');
  for (let i = 0; i < 6; i++) await get(`/v1/evaluations/${ids.evaluation}`);
  await post('/v1/evaluations', { spec: SPEC, label: 'built' }, { 'idempotency-key': 'build-1' });
  await post('/v1/evaluations', { spec: SPEC, label: 'after' });
  for (let i = 0; i < 3; i++) await get('/v1/keys/me', LIMITED.secret);
  await send('advance', `/_control/accounts/${DEFAULT_ACCOUNT}/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: 120 }),
  });
  for (const collection of COLLECTIONS) await get(`/v1/${collection}`);
  await get('/v1/augmentations/aug_00000000000000000000000001/archive');
  await get(`/v1/evaluations/${ids.evaluation}/archive`);
  await get('/v1/events?limit=100');
  await get('/v1/requests?limit=100');
  await get('/v1/usage');
  await get('/_control/faults');
  await get(`/_control/accounts/${LIMITED.id}/clock`);
  return out;
}
