/** Shapes every area shares: the error and list envelopes, timestamps, the version header. */
import { z } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import { ERROR_TYPES } from './errors.js';

export const SUPPORTED_VERSIONS = ['2026-09-27', '2026-10-12'] as const;
export type ServiceVersion = (typeof SUPPORTED_VERSIONS)[number];
export const DEFAULT_VERSION: ServiceVersion = '2026-09-27';

/** Marks a schema or operation as our inference where the API document says "not shown". */
export const INFERRED = { 'x-inferred': true } as const;

/**
 * A noun with its indefinite article, by sound, for summaries: an acronym is read letter by letter.
 * @example withArticle('RL run') // 'an RL run'; withArticle('twin') // 'a twin'
 */
export function withArticle(noun: string): string {
  const vowelSound = /^[A-Z]{2,}\b/.test(noun)
    ? /^[AEFHILMNORSX]/.test(noun)
    : /^[aeiou]/i.test(noun);
  return `${vowelSound ? 'an' : 'a'} ${noun}`;
}

export const Timestamp = z
  .string()
  .openapi({ format: 'date-time', example: '2026-01-01T00:00:00.000Z', ...INFERRED });

export const Metadata = z.record(z.string(), z.unknown());

export const ErrorBody = z
  .object({
    type: z.enum(ERROR_TYPES),
    code: z.string(),
    message: z.string(),
    param: z.string().nullable().openapi({ description: 'The parameter concerned, or null.' }),
    request_id: z
      .string()
      .nullable()
      .openapi({ description: 'The `X-Request-Id` of the response.' }),
    details: Metadata.nullable().openapi({ description: 'More about the error, or null.' }),
  })
  .openapi('ApiErrorBody', {
    example: {
      type: 'invalid_request_error',
      code: 'resource_not_found',
      message: "No such evaluation: 'eval_01KA0000000000000000000000'.",
      param: 'run_id',
      request_id: 'req_01KA0000000000000000000000',
      details: null,
    },
  });

export const ErrorEnvelope = z.object({ error: ErrorBody }).openapi('ErrorResponse');
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** The list envelope of section 2.1 around items of one kind. */
export function listOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable().openapi({
        description: 'The cursor for the next page; null on the last page (inferred).',
      }),
    })
    .openapi(name);
}

/** `Service-Version` and `X-Request-Id` on every response (sections 2.1 and 9.3). */
export const ResponseHeaders = z.object({
  'Service-Version': z.enum(SUPPORTED_VERSIONS).openapi({
    description: 'The contract version that served the response.',
  }),
  'X-Request-Id': z.string().openapi({ description: 'Repeated in error bodies as request_id.' }),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: `parameter_invalid` (with `param`), `unsupported_version`.',
  401: 'Missing, invalid, revoked or expired key: `unauthenticated`.',
  402: 'Not enough tokens: `insufficient_tokens`.',
  403: '`missing_scope`, or `feature_not_enabled` for the account.',
  404: '`resource_not_found`; ids of another account answer the same.',
  409: 'Conflict with the resource state or an earlier request.',
  412: '`If-Match` names none of the current ETags: `precondition_failed`.',
  413: 'Request body over 1 MiB: `request_too_large`.',
  416: 'The Range cannot be satisfied: `range_not_satisfiable`.',
  429: '`rate_limit_exceeded`, `concurrency_limit_exceeded`, `capacity_exceeded`; honor `Retry-After`.',
  500: 'Server error: `api_error`.',
  502: 'An upstream service failed (`launch_failed`); safe to retry.',
};

/** The error responses of one operation, each with the standard envelope. */
export function errorResponses(
  statuses: number[],
  overrides: Record<number, string | undefined> = {},
) {
  const out: Record<
    number,
    { description: string; headers: typeof ResponseHeaders; content: object }
  > = {};
  for (const status of statuses) {
    out[status] = {
      description: overrides[status] ?? ERROR_DESCRIPTIONS[status] ?? 'Error.',
      headers: ResponseHeaders,
      content: { 'application/json': { schema: ErrorEnvelope } },
    };
  }
  return out;
}

/** A success response with the standard headers. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, headers: ResponseHeaders, content: { 'application/json': { schema } } };
}

/**
 * A list's page parameters (section 2.1): `after`, the last id seen, and `limit`, 1 to 100.
 * @example request: { query: z.object(pageQuery('The id of the last item seen.')) }
 */
export function pageQuery(after?: string) {
  return {
    after: z.string().optional().openapi({ description: after }),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  };
}

/** Cursor paging of file listings (DESIGN.md section 3: `limit` 1..1000, default 100). */
export const FilePageQuery = z.object({
  after: z.string().optional().openapi({ description: 'The last `path` of the previous page.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .openapi({ description: 'Page size, 1 to 1000 (inferred).', ...INFERRED }),
});

export const FileEntry = z.object({
  path: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
});
export type FileEntry = z.infer<typeof FileEntry>;

interface OperationGuards {
  /** The versions the API document lists for this operation (applied by --strict-versions). */
  versions: readonly ServiceVersion[];
  /** The scope a key needs (DESIGN.md section 3); none for GET /v1/keys/me. */
  scope?: string;
  /** An account feature the operation needs. */
  feature?: string;
  /** Needs no key (the status area, API document section 5.1): no security requirement. */
  keyless?: boolean;
}

/**
 * A product operation's guards as route data, which `routeSteps()` makes middleware of. The
 * `Service-Version` header is documented only: the version middleware checks it first.
 */
export function operationGuards({ versions, scope, feature, keyless }: OperationGuards) {
  const versionHeader = {
    name: 'Service-Version',
    in: 'header' as const,
    required: false,
    description: `Pins the contract version. The emulator accepts both supported versions on every operation unless started with --strict-versions, which accepts only the versions the API document lists for this operation (\`x-service-versions\`: ${versions.join(', ')}).`,
    schema: { type: 'string' as const, enum: [...SUPPORTED_VERSIONS], default: DEFAULT_VERSION },
  };
  return {
    parameters: [versionHeader],
    security: keyless ? [] : [{ ApiKeyAuth: [] }],
    'x-service-versions': [...versions],
    ...(scope ? { 'x-required-scope': scope } : {}),
    ...(feature ? { 'x-required-feature': feature } : {}),
  };
}

/**
 * A route's declared JSON answer sent as bytes made elsewhere (a file's text streamed as it was
 * written, not parsed and re-serialised by `c.json()`). A typed route takes only `c.json()`'s typed
 * answer for a JSON response; those types mark nothing at run time, so the same Response is that
 * answer. The one place `src/` vouches for a body its types cannot see.
 * @example return jsonAnswer(c.body(stream, 200, { 'Content-Type': 'application/json' }))
 */
export function jsonAnswer<T, S extends StatusCode>(
  res: Response,
): Response & TypedResponse<T, S, 'json'> {
  return res as Response & TypedResponse<T, S, 'json'>;
}
