/**
 * One answer against the contract: status, the error envelope (API document section 7), the body
 * against the response schema, and the headers every answer carries.
 */
import { errorTypeForStatus } from '../../core/errors.js';
import {
  type Contract,
  type ContractOperation,
  codesDeclared,
  declaredStatuses,
  responseSchema,
} from './contract.js';
import type { Difference } from './report-types.js';
import type { Answer } from './target-client.js';

export interface Expectation {
  /** The statuses that agree. */
  status: number[];
  /** The error codes that agree; any when absent. */
  codes?: string[];
  /** The error's `param`: a name, one of several names, or null; unchecked when absent. */
  param?: string | null | string[];
  /** The `Service-Version` the request pinned. */
  version?: string;
  /** Another answer that agrees as well, judged by its own codes and param (a 403 gate). */
  or?: Expectation;
}

/**
 * `expectation`, or 403 `feature_not_enabled` where a feature gates `op`: an account without the
 * feature gets that before any other check of the request (DESIGN.md section 3, order of checks).
 */
export function orFeatureGate(op: ContractOperation, expectation: Expectation): Expectation {
  if (!op.feature) return expectation;
  return { ...expectation, or: { status: [403], codes: ['feature_not_enabled'] } };
}

/** The statuses that agree, the alternative's included. */
export function agreeingStatuses(e: Expectation): number[] {
  return [...e.status, ...(e.or ? agreeingStatuses(e.or) : [])];
}

/** The expectation whose status `status` is: the alternative's when only it lists it. */
function chosen(e: Expectation, status: number): Expectation {
  if (e.status.includes(status) || !e.or) return e;
  return agreeingStatuses(e.or).includes(status) ? chosen(e.or, status) : e;
}

export interface Verdict {
  matched: string[];
  differences: Difference[];
}

type Headers = Record<string, string>;

/** Compares `answer` to what `op` of the contract and `expectation` say. */
export function judge(
  contract: Contract,
  op: ContractOperation,
  expectation: Expectation,
  answer: Answer,
): Verdict {
  const v: Verdict = { matched: [], differences: [] };
  if (answer.networkError) {
    v.differences.push({
      field: 'answer',
      expected: 'an HTTP answer',
      actual: answer.networkError,
    });
    return v;
  }
  const all = agreeingStatuses(expectation);
  const statusAgrees = all.includes(answer.status);
  agree(v, 'status', statusAgrees, all.join(' or '), answer.status);
  const declared = declaredStatuses(op).includes(answer.status);
  if (!statusAgrees && !declared)
    v.differences.push({
      field: 'status declared',
      expected: `one of ${declaredStatuses(op).join(', ')}`,
      actual: answer.status,
    });
  if (declared) judgeCodeDeclared(v, op, answer);
  judgeHeaders(v, op, answer, expectation);
  judgeBody(v, contract, op, answer);
  if (answer.status >= 400 && isObject(answer.json))
    judgeEnvelope(v, chosen(expectation, answer.status), answer, statusAgrees);
  return v;
}

/** An error's code is one its response declares (`x-error-codes`), where the response lists any. */
function judgeCodeDeclared(v: Verdict, op: ContractOperation, answer: Answer): void {
  const codes = codesDeclared(op, answer.status);
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (answer.status < 400 || codes.length === 0 || typeof code !== 'string') return;
  agree(v, 'error.code declared', codes.includes(code), `one of ${codes.join(', ')}`, code);
}

function agree(v: Verdict, field: string, ok: boolean, expected: unknown, actual: unknown): void {
  if (ok) v.matched.push(field);
  else v.differences.push({ field, expected, actual });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function judgeHeaders(v: Verdict, op: ContractOperation, answer: Answer, e: Expectation): void {
  const h: Headers = answer.headers;
  const declared = op.responses[String(answer.status)]?.headers ?? {};
  const wanted = new Set(['X-Request-Id', 'Service-Version']);
  for (const [name, spec] of Object.entries(declared)) if (spec.required) wanted.add(name);
  // API document sections 7 and 8: a 429 comes with Retry-After.
  if (answer.status === 429) wanted.add('Retry-After');
  for (const name of wanted) {
    const value = h[name.toLowerCase()];
    const schema = declared[name]?.schema;
    const allowed = Array.isArray(schema?.enum) ? (schema.enum as string[]) : undefined;
    if (value === undefined) agree(v, `header ${name}`, false, 'present', 'missing');
    else if (allowed && !allowed.includes(value))
      agree(v, `header ${name}`, false, `one of ${allowed.join(', ')}`, value);
    else if (name === 'Retry-After' && !/^\d+$/.test(value))
      agree(v, `header ${name}`, false, 'whole seconds', value);
    else v.matched.push(`header ${name}`);
  }
  // API document section 9: a pinned version is the one that serves.
  const served = h['service-version'];
  if (e.version && answer.status < 400 && served !== undefined)
    agree(v, 'header Service-Version (pinned)', served === e.version, e.version, served);
  const types = Object.keys(op.responses[String(answer.status)]?.content ?? {});
  const type = (h['content-type'] ?? '').split(';')[0]!.trim();
  if (types.length > 0 && (answer.bytes.length > 0 || answer.over))
    agree(v, 'header Content-Type', types.includes(type), types.join(' or '), type || 'missing');
}

function judgeBody(v: Verdict, contract: Contract, op: ContractOperation, answer: Answer): void {
  const schema = responseSchema(op, answer.status);
  if (!schema) return;
  if (answer.json === undefined) {
    const actual = answer.over
      ? 'a body too large to keep and check'
      : `${answer.bytes.length} bytes, not JSON`;
    agree(v, 'body', false, 'a JSON body', actual);
    return;
  }
  const issues = contract.checkBody(answer.json, schema);
  if (issues.length === 0) v.matched.push('body schema');
  for (const i of issues)
    v.differences.push({
      field: i.path === '' ? 'body' : `body.${i.path}`,
      expected: i.expected,
      actual: i.actual,
      ...(i.inferred ? { inferred: true } : {}),
    });
}

function judgeEnvelope(v: Verdict, e: Expectation, answer: Answer, statusAgrees: boolean): void {
  const error = (answer.json as { error?: unknown }).error;
  if (!isObject(error)) return;
  const type = errorTypeForStatus(answer.status);
  agree(v, 'error.type', error.type === type, type, error.type);
  const requestId = answer.headers['x-request-id'];
  if (requestId !== undefined && 'request_id' in error)
    agree(v, 'error.request_id', error.request_id === requestId, requestId, error.request_id);
  // Code and param are compared only when the status is the one expected: else the status says it.
  if (!statusAgrees) return;
  if (e.codes && e.codes.length > 0)
    agree(v, 'error.code', e.codes.includes(String(error.code)), e.codes.join(' or '), error.code);
  if (e.param !== undefined) {
    const ok = Array.isArray(e.param)
      ? e.param.includes(String(error.param))
      : error.param === e.param;
    agree(
      v,
      'error.param',
      ok,
      Array.isArray(e.param) ? e.param.join(' or ') : e.param,
      error.param,
    );
  }
}
