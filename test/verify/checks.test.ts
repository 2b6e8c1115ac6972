/** The pieces verify and drift judge with: the schema check, the masking, the shape comparison. */
import { expect, test } from 'vitest';
import { compareAnswers, compareShapes } from '../../src/tools/verify/compare-answers.js';
import { maskHeaders, maskJson, SecretSet } from '../../src/tools/verify/mask.js';
import { violationsHeader } from '../../src/tools/verify/proxy.js';
import { checkSchema } from '../../src/tools/verify/schema-check.js';

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

test('the schema check names each field at fault, and whether the contract infers it', () => {
  const run = { $ref: '#/components/schemas/Run' };
  expect(checkSchema({ id: 'r', status: 'queued', guess: 1 }, run, components)).toEqual([]);
  expect(
    checkSchema(
      { id: 7, status: 'done', progress: 2, completed_at: 'yesterday', extra: true },
      run,
      components,
    ),
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
  expect(
    checkSchema({ id: 'r', status: 'queued', guess: 1, secret: 's' }, both, components),
  ).toEqual([]);
  const list = { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } };
  expect(checkSchema(['a', null, 3], list, {})).toEqual([
    { path: '[2]', expected: 'string', actual: 'integer', inferred: false },
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
