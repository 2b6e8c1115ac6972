/**
 * A product operation's error answers as data (DESIGN.md section 2: each route declares the error
 * codes it can answer): per status the codes, served as the response's `x-error-codes`, a
 * description made from them, and an example of that operation's own (API document section 7).
 */

import { ErrorEnvelope, ResponseHeaders, SUPPORTED_VERSIONS } from './contract.js';
import { ERROR_CATALOG, errorTypeForStatus, MESSAGES } from './errors.js';

/** The codes a status answers on an operation that names none of its own. */
export const USUAL_CODES: Readonly<Record<number, readonly string[]>> = {
  400: ['parameter_invalid', 'unsupported_version'],
  401: ['unauthenticated'],
  402: ['insufficient_tokens'],
  403: ['missing_scope'],
  404: ['resource_not_found'],
  409: ['idempotency_key_reused'],
  412: ['precondition_failed'],
  413: ['request_too_large'],
  416: ['range_not_satisfiable'],
  429: ['rate_limit_exceeded'],
  500: ['api_error'],
  502: ['launch_failed'],
  503: ['api_error'],
  504: ['api_error'],
};

/**
 * The code a fault answers with when the rule names only a status: the status's usual first code;
 * a 409 is the operation's own conflict (`conflict`, its 409's first code) where it has one.
 * @example defaultFaultCode(409, 'not_resumable') // 'not_resumable'
 */
export function defaultFaultCode(status: number, conflict: string | null): string {
  if (status === 409 && conflict) return conflict;
  return USUAL_CODES[status]?.[0] ?? 'api_error';
}

/**
 * The operation's own state conflict: its 409's first code other than an Idempotency-Key reuse.
 * @example conflictOf(route.responses) // 'not_resumable' for a resume
 */
export function conflictOf(
  responses: Readonly<Record<string, object | undefined>> = {},
): string | null {
  const conflict = responses['409'];
  const codes = conflict && 'x-error-codes' in conflict ? conflict['x-error-codes'] : undefined;
  if (!Array.isArray(codes)) return null;
  return codes.find((c) => c !== 'idempotency_key_reused') ?? null;
}

/** The 429s of a call that starts a run (runtime/engine/limits.ts). */
export const RUN_START_LIMITS = [
  'rate_limit_exceeded',
  'concurrency_limit_exceeded',
  'capacity_exceeded',
] as const;

/** What a status means, before the list of its codes. */
const LEADS: Readonly<Record<number, string>> = {
  400: 'Invalid request',
  401: 'Missing, invalid, revoked or expired key',
  402: 'Not enough tokens',
  403: 'The key lacks the scope, or the account the feature',
  404: 'No such resource; ids of another account answer the same',
  409: 'Conflict with the resource state or an earlier request',
  412: '`If-Match` names none of the current ETags',
  413: 'Request body over 1 MiB',
  416: 'The Range cannot be satisfied',
  429: 'Too many requests; honor `Retry-After`',
  500: 'Server error',
  502: 'An upstream service failed; safe to retry',
  503: 'Unavailable; safe to retry',
  504: 'Gateway timeout; safe to retry',
};

/** The description of an error response from its codes. */
export function describeAnswer(status: number, codes: readonly string[]): string {
  const listed = codes.map((c) => `\`${c}\``).join(', ');
  return `${LEADS[status] ?? 'Error'}${listed ? `: ${listed}` : ''}.`;
}

export interface ErrorExample {
  code: string;
  message: string;
  param?: string | null;
  details?: Record<string, unknown> | null;
}

/** The resource an operation's path names, for its 404's example. */
export interface NamedResource {
  /** As a 404 message names it: `evaluation`, `webhook endpoint`. */
  noun: string;
  /** An id of it, e.g. `eval_01KA0000000000000000000000`. */
  id: string;
  /** The path parameter holding the id. */
  param: string;
}

export interface ErrorAnswersSpec {
  /** A status's codes where they are not its usual ones; the first is the example's. */
  codes?: Partial<Record<number, readonly string[]>>;
  /** The resource the path names: the 404 example says `No such <noun>: '<id>'`. */
  resource?: NamedResource;
  /** A status's example where the one made from its first code would say less. */
  examples?: Partial<Record<number, ErrorExample>>;
}

/** An id of the examples: a ULID of the virtual clock's default start. */
export const EXAMPLE_ULID = '01KDVDNA000000000000000000';

/** The message of `code` as the emulator words it where no route says more. */
function sampleMessage(code: string): string {
  switch (code) {
    case 'unsupported_version':
      return MESSAGES.unsupportedVersion('1999-01-01', SUPPORTED_VERSIONS);
    case 'unauthenticated':
      return MESSAGES.invalidKey;
    case 'insufficient_tokens':
      return MESSAGES.needsTokens(120, 40);
    case 'not_cancelable':
      return MESSAGES.notCancelable('succeeded');
    case 'not_resumable':
      return MESSAGES.notResumableStatus('succeeded');
    case 'run_not_ready':
      return MESSAGES.filesNotReady('run', 'processing');
    case 'idempotency_key_reused':
      return MESSAGES.keyReused;
    case 'rate_limit_exceeded':
      return MESSAGES.rateLimited(60, 1);
    default:
      return code in ERROR_CATALOG
        ? ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].message
        : ERROR_CATALOG.api_error.message;
  }
}

/** The example of one error response: the route's own, else made from its first code. */
export function exampleAnswer(
  status: number,
  codes: readonly string[],
  spec: Pick<ErrorAnswersSpec, 'resource' | 'examples'> = {},
): { error: Record<string, unknown> } {
  const own = spec.examples?.[status];
  // A 400 says which of the supported versions serve: it fits every operation.
  const code = own?.code ?? (status === 400 ? 'unsupported_version' : (codes[0] ?? 'api_error'));
  const r = spec.resource;
  const notFound = code === 'resource_not_found' && r;
  const error: ErrorExample = own ?? {
    code,
    message: notFound ? MESSAGES.notFound(r.noun, r.id) : sampleMessage(code),
    param: notFound ? r.param : code === 'unsupported_version' ? 'Service-Version' : null,
  };
  return {
    error: {
      type: errorTypeForStatus(status),
      code: error.code,
      message: error.message,
      param: error.param ?? null,
      request_id: `req_${EXAMPLE_ULID}`,
      details: error.details ?? null,
    },
  };
}

/**
 * The error responses of a product operation, each with the standard envelope, its codes as
 * `x-error-codes`, and an example.
 * @example responses: { 200: ..., ...errorAnswers([400, 401, 404], { resource }) }
 */
export function errorAnswers(statuses: number[], spec: ErrorAnswersSpec = {}) {
  const out: Record<
    number,
    {
      description: string;
      headers: typeof ResponseHeaders;
      content: object;
      'x-error-codes': string[];
    }
  > = {};
  for (const status of statuses) {
    const codes = [...(spec.codes?.[status] ?? USUAL_CODES[status] ?? [])];
    out[status] = {
      description: describeAnswer(status, codes),
      headers: ResponseHeaders,
      content: {
        'application/json': { schema: ErrorEnvelope, example: exampleAnswer(status, codes, spec) },
      },
      'x-error-codes': codes,
    };
  }
  return out;
}
