/** The pieces verify and drift judge with: the schema check, the masking, the shape comparison. */
import { expect, test } from 'vitest';
import { compareAnswers, compareShapes } from '../../src/tools/verify/compare-answers.js';
import { responseSchema } from '../../src/tools/verify/contract.js';
import { maskHeaders, maskJson, SecretSet } from '../../src/tools/verify/mask.js';
import { violationsHeader } from '../../src/tools/verify/proxy.js';
import { schemaCheck } from '../../src/tools/verify/schema-check.js';
import { testEmulator } from '../helpers.js';
import { sharedContract } from './support.js';

const components = {
  Run: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      status: { type: 'string', enum: ['queued', 'succeeded'] },
      progress: { type: 'number', minimum: 0, maximum: 1 },
      completed_at: { type: ['string', 'null'], format: 'date-time' },
      guess: { type: 'integer', 'x-inferred': true },
    },
    required: ['id', 'status', 'guess'],
  },
};
const check = schemaCheck(components);

test('the schema check names each field at fault, and whether the contract infers it', () => {
  const run = { $ref: '#/components/schemas/Run' };
  expect(check({ id: 'r', status: 'queued', guess: 1 }, run)).toEqual([]);
  expect(
    check({ id: 7, status: 'done', progress: 2, completed_at: 'yesterday', extra: true }, run),
  ).toEqual([
    { path: 'guess', expected: 'present (required)', actual: 'missing', inferred: true },
    { path: 'id', expected: 'string', actual: 'integer', inferred: false },
    { path: 'status', expected: 'one of "queued", "succeeded"', actual: '"done"', inferred: false },
    { path: 'progress', expected: '<= 1', actual: '2', inferred: false },
    {
      path: 'completed_at',
      expected: 'an RFC 3339 date-time',
      actual: '"yesterday"',
      inferred: false,
    },
    {
      path: 'extra',
      expected: 'absent: the contract does not name it',
      actual: 'true',
      inferred: false,
    },
  ]);
});

test('allOf merges the named fields; anyOf takes the closest branch; arrays check each item', () => {
  const both = {
    allOf: [components.Run, { type: 'object', properties: { secret: { type: 'string' } } }],
  };
  expect(check({ id: 'r', status: 'queued', guess: 1, secret: 's' }, both)).toEqual([]);
  const list = { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } };
  expect(check(['a', null, 3], list)).toEqual([
    { path: '[2]', expected: 'string', actual: 'integer', inferred: false },
  ]);
});

test('inside lists, maps and allOf: the item at fault by index, an inferred parent, extras', () => {
  const list = {
    type: 'object',
    properties: {
      data: { type: 'array', items: { $ref: '#/components/schemas/Run' }, maxItems: 3 },
      labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 4 } },
      guessed: {
        type: 'object',
        'x-inferred': true,
        properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
      },
    },
    required: ['data'],
  };
  const run = { id: 'r', status: 'queued', guess: 1 };
  const body = {
    data: [run, { ...run, status: 7, completed_at: 5 }, { ...run, id: 'x', extra: [1] }],
    labels: { a: 'ok', b: 'too long' },
    guessed: { n: 0 },
  };
  expect(check(body, list)).toEqual([
    { path: 'data[1].status', expected: 'string', actual: 'integer', inferred: false },
    {
      path: 'data[1].completed_at',
      expected: 'string or null',
      actual: 'integer',
      inferred: false,
    },
    {
      path: 'data[2].extra',
      expected: 'absent: the contract does not name it',
      actual: '[1]',
      inferred: false,
    },
    { path: 'labels.b', expected: 'at most 4 characters', actual: '8', inferred: false },
    { path: 'guessed.n', expected: '> 0', actual: '0', inferred: true },
  ]);
  // The component closed on its own is open as a part of an allOf, which is closed instead.
  const created = {
    allOf: [
      { $ref: '#/components/schemas/Run' },
      { type: 'object', properties: { secret: { type: 'string' } }, required: ['secret'] },
    ],
  };
  expect(check({ ...run, secret: 's' }, created)).toEqual([]);
  expect(check({ ...run, secret: 's', more: 1 }, created)).toEqual([
    {
      path: 'more',
      expected: 'absent: the contract does not name it',
      actual: '1',
      inferred: false,
    },
  ]);
  expect(check({ ...run, secret: 's' }, { $ref: '#/components/schemas/Run' })).toEqual([
    {
      path: 'secret',
      expected: 'absent: the contract does not name it',
      actual: '"s"',
      inferred: false,
    },
  ]);
});

test('the served document: each field at fault in a run, and in a run inside an event', async () => {
  const { api } = testEmulator({ webhooks: false });
  const spec = { path: 'specs/pick_place.yaml', name: 'pick_place' };
  const run = (await api('POST', '/v1/evaluations', { body: { spec } })).json;
  const events = (await api('GET', '/v1/events?limit=1')).json;
  const contract = await sharedContract();
  const schemaOf = (id: string, status: number) =>
    responseSchema(contract.operations.find((o) => o.operationId === id)!, status)!;
  expect(contract.checkBody(run, schemaOf('createEvaluation', 201))).toEqual([]);
  expect(contract.checkBody(events, schemaOf('listEvents', 200))).toEqual([]);
  const statuses = 'one of "queued", "processing", "canceling", "succeeded", "failed", "canceled"';
  const absent = 'absent: the contract does not name it';
  run.status = 'running';
  run.episodes.done = '3';
  run.surprise = true;
  delete run.created_at;
  expect(contract.checkBody(run, schemaOf('createEvaluation', 201))).toEqual([
    { path: 'created_at', expected: 'present (required)', actual: 'missing', inferred: true },
    { path: 'status', expected: statuses, actual: '"running"', inferred: false },
    { path: 'episodes.done', expected: 'integer', actual: 'string', inferred: false },
    { path: 'surprise', expected: absent, actual: 'true', inferred: false },
  ]);
  // `data.object` is any of the run kinds' bodies, or an open inferred one that comes closest.
  events.data[0].type = 5;
  events.data[0].data.object.status = 'running';
  events.data[0].surprise = [1];
  expect(contract.checkBody(events, schemaOf('listEvents', 200))).toEqual([
    { path: 'data[0].type', expected: 'string', actual: 'integer', inferred: true },
    { path: 'data[0].data.object.status', expected: statuses, actual: '"running"', inferred: true },
    { path: 'data[0].surprise', expected: absent, actual: '[1]', inferred: true },
  ]);
});

test('secrets: headers, fields named like secrets, and every secret seen are cut from the text', () => {
  const secrets = new SecretSet();
  secrets.add('svc_live_abcdef123456');
  expect(maskHeaders({ Authorization: 'Bearer svc_live_abcdef123456', Accept: 'x' })).toEqual({
    authorization: '***',
    accept: 'x',
  });
  const body = maskJson(
    { id: 'whe_1', secret: 'whsec_c2VjcmV0c2VjcmV0', nested: [{ token: 'tok_abcdefgh' }] },
    secrets,
  );
  expect(body).toEqual({ id: 'whe_1', secret: '***', nested: [{ token: '***' }] });
  const text = secrets.scrub(
    'key svc_live_abcdef123456, whsec_c2VjcmV0c2VjcmV0 again, /_downloads/dl_tok?x=1&signature=abc',
  );
  expect(text).toBe('key ***, *** again, /_downloads/***?x=1&signature=***');
});

test('drift compares status, error codes, object names and field types, not values or null', () => {
  const recorded = {
    status: 200,
    headers: { 'service-version': '2026-09-27' },
    body: {
      id: 'eval_A',
      object: 'evaluation',
      progress: 0.5,
      completed_at: null,
      links: { self: 'x' },
    },
  };
  const same = {
    ...recorded,
    body: { ...recorded.body, id: 'eval_B', progress: 1, completed_at: 'now' },
  };
  expect(compareAnswers(recorded, same).differences).toEqual([]);
  expect(
    compareShapes(
      { object: 'evaluation', data: [{ n: 1 }] },
      { object: 'run', data: [{ n: '1' }], more: 1 },
    ),
  ).toEqual([
    { field: 'body.object', expected: 'evaluation', actual: 'run' },
    { field: 'body.data[0].n', expected: 'number', actual: 'string' },
    { field: 'body.more', expected: 'absent (the service does not send it)', actual: 'present' },
  ]);
  expect(
    compareShapes({ error: { code: 'a', param: 'limit' } }, { error: { code: 'a', param: null } }),
  ).toEqual([{ field: 'body.error.param', expected: 'limit', actual: null }]);
});

test('the violations header is JSON in ASCII, cut short with a count when long', () => {
  const many = Array.from({ length: 200 }, (_, i) => ({
    field: `body.f${i}`,
    expected: 'é',
    actual: i,
  }));
  const header = violationsHeader(many);
  expect(header).toMatch(/^[\x20-\x7e]+$/);
  expect(header.length).toBeLessThan(4100);
  const parsed = JSON.parse(header);
  expect(parsed[0]).toEqual({ field: 'body.f0', expected: 'é', actual: 0 });
  expect(parsed.at(-1)).toMatchObject({ field: '...', actual: expect.stringMatching(/more$/) });
});
