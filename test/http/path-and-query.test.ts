/**
 * A product route's query and path parameters are validated by one step of ours (pathAndQuery,
 * src/http/path-and-query.ts), not zod-openapi's validators: the same answers as theirs, the
 * query first, both before the handler, and the served document still lists both.
 */
import { expect, test } from 'vitest';
import { testEmulator } from '../helpers.js';

const UNKNOWN = 'eval_01KA0000000000000000000000';

test('a query parameter out of range, or given twice, is 400 naming it, before the run lookup', async () => {
  const { api } = testEmulator();
  for (const query of ['limit=0', 'limit=5&limit=6', 'limit=abc']) {
    const res = await api('GET', `/v1/sim_runs/${UNKNOWN}/logs?${query}`);
    expect(res.status, query).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  }
  const listed = await api('GET', '/v1/evaluations?limit=101');
  expect(listed.status).toBe(400);
  expect(listed.json.error.param).toBe('limit');
});

test('the validated path and query reach the handler', async () => {
  const { api, control } = testEmulator();
  const res = await api('GET', `/v1/sim_runs/${UNKNOWN}/logs?limit=5`);
  expect(res.status).toBe(404);
  expect(res.json.error.message).toContain(UNKNOWN);
  const run = await control('POST', '/accounts/acct_00000000000000000000000001/evaluations', {
    spec: { path: 'a/spec.yaml', name: 'a' },
    status: 'failed',
  });
  const page = await api('GET', '/v1/evaluations?limit=1');
  expect(page.status).toBe(200);
  expect(page.json.data.map((r: { id: string }) => r.id)).toEqual([run.id]);
  const logs = await api('GET', `/v1/sim_runs/${run.id}/logs?limit=2`);
  expect(logs.status).toBe(200);
  expect(logs.json.id).toBe(run.id);
});

test('the served document lists the path and query parameters of a route', async () => {
  const { app } = testEmulator();
  type Parameter = { in: string; name: string };
  type Document = { paths: Record<string, { get?: { parameters?: Parameter[] } }> };
  const doc = (await (await app.request('/openapi.json')).json()) as Document;
  const params = doc.paths['/v1/sim_runs/{run_id}/logs']?.get?.parameters ?? [];
  expect(params.map((p) => `${p.in}:${p.name}`)).toEqual(
    expect.arrayContaining(['path:run_id', 'query:limit']),
  );
});
