/**
 * The one error catalog (STYLE.md rule 2): every code the emulator answers, its status and default
 * message; the API document's (section 7) and those DESIGN.md section 3 adds (`inferred`).
 */
import { MESSAGES } from './messages.js';

export { MESSAGES };

/** `type` per HTTP status, as the API document section 7 maps it. */
export function errorTypeForStatus(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  // 400, and the inferred 402, 408, 413 and 431 (DESIGN.md section 3).
  return 'invalid_request_error';
}

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'rate_limit_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface CatalogEntry {
  status: number;
  message: string;
  inferred?: boolean;
}

/** A code the API document names (section 7). */
const documented = (status: number, message: string): CatalogEntry => ({ status, message });
/** A code the API document does not name, which DESIGN.md section 3 decides. */
const inferred = (status: number, message: string) => ({ status, message, inferred: true });

export const ERROR_CATALOG = {
  parameter_invalid: documented(400, 'A request parameter is malformed or out of range.'),
  unsupported_version: documented(
    400,
    'The Service-Version header names a version this service does not support.',
  ),
  camera_not_found: documented(400, 'The requested camera is absent from the dataset.'),
  request_too_large: inferred(413, 'The request body is larger than 1 MiB.'),
  request_header_too_large: inferred(
    431,
    'The request line or headers are too large (more than 16 KiB).',
  ),
  request_malformed: inferred(
    400,
    'The request is not valid HTTP/1.1 (bad method, path, headers or framing).',
  ),
  request_timeout: inferred(408, 'The request was not received in time.'),
  unauthenticated: documented(401, 'The API key is missing, invalid, revoked or expired.'),
  insufficient_tokens: documented(402, 'The account does not have enough tokens for this run.'),
  missing_scope: documented(403, 'The API key lacks the scope this call needs.'),
  feature_not_enabled: inferred(403, 'This feature is not enabled for the account.'),
  download_expired: inferred(403, 'The download link has expired.'),
  resource_not_found: documented(404, 'No such resource.'),
  not_cancelable: documented(409, "The run's state does not allow cancellation."),
  not_resumable: inferred(
    409,
    'Only a failed or canceled run with a resumable error can be resumed.',
  ),
  idempotency_key_reused: documented(
    409,
    'This Idempotency-Key was used with a different request.',
  ),
  builtin_scenario: inferred(409, 'Built-in scenarios cannot be deleted.'),
  policy_in_training: inferred(409, 'A training run for this policy is already queued or running.'),
  run_not_ready: inferred(409, 'The run has not succeeded; its files are not ready.'),
  precondition_failed: inferred(412, "The archive's ETag matches none of the If-Match tags."),
  range_not_satisfiable: inferred(416, 'The requested range is outside the archive.'),
  rate_limit_exceeded: documented(429, 'Too many requests. Retry after the given delay.'),
  concurrency_limit_exceeded: documented(
    429,
    'Too many concurrent runs. Retry after the given delay.',
  ),
  capacity_exceeded: documented(429, 'The service is at capacity. Retry after the given delay.'),
  launch_failed: documented(502, 'An upstream service failed. It is safe to retry.'),
  api_error: documented(500, 'The server failed to handle the request.'),
  control_unauthorized: inferred(401, 'The control API needs a valid X-Control-Token header.'),
  delivery_pending: inferred(409, 'The webhook delivery is still pending.'),
  endpoint_unavailable: inferred(409, 'The webhook endpoint is deleted or disabled.'),
  cross_origin_forbidden: inferred(
    403,
    'The control API refuses requests from another web origin; start the emulator with --control-allow-origin to allow one.',
  ),
  expectation_failed: inferred(
    417,
    "The server cannot meet the request's Expect header; only 100-continue is supported.",
  ),
  method_not_allowed: inferred(405, 'This server does not serve that method.'),
  bundle_not_recording: inferred(
    409,
    'No calls are recorded: mark first (POST /_control/bundle/mark), or start the emulator with --bundle-record.',
  ),
  bundle_too_large: inferred(409, 'The bundle would be larger than --bundle-limit allows.'),
  host_not_allowed: inferred(
    403,
    'The control API and the docs page answer only the hosts the emulator was bound to or told about; start it with --allowed-hosts to allow another.',
  ),
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ApiErrorOptions {
  /** Replaces the catalog's default message. */
  message?: string;
  param?: string | null;
  details?: Record<string, unknown> | null;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** Overrides the catalog status: fault rules may answer any documented status with any code. */
  status?: number;
}

/**
 * An error that renders as the API document's envelope (section 7). An answer, not a fault: it is
 * built without the `Error` constructor and has no stack (`instanceof Error` holds, as Hono's
 * `onError` needs); `renderError` logs an unexpected exception's own stack.
 */
export class ApiError extends Error {
  declare readonly code: string;
  declare readonly status: number;
  declare readonly type: ErrorType;
  declare readonly param: string | null;
  declare readonly details: Record<string, unknown> | null;
  declare readonly headers: Record<string, string>;

  /** Use {@link ApiError.of}: this runs the `Error` constructor, which `of` does not. */
  private constructor() {
    super();
  }

  /**
   * The error for `code`, with the catalog's status and message unless `options` replace them;
   * any code, for fault rules that answer a code of their choosing.
   * @example throw ApiError.of('conflict_custom', { status: 409 })
   */
  static of(code: string, options: ApiErrorOptions = {}): ApiError {
    const known = Object.hasOwn(ERROR_CATALOG, code);
    const entry: CatalogEntry | undefined = known ? ERROR_CATALOG[code as ErrorCode] : undefined;
    const status = options.status ?? entry?.status ?? 500;
    return Object.assign(Object.create(ApiError.prototype) as ApiError, {
      message: options.message ?? entry?.message ?? ERROR_CATALOG.api_error.message,
      code,
      status,
      type: errorTypeForStatus(status),
      param: options.param ?? null,
      details: options.details ?? null,
      headers: options.headers ?? {},
    });
  }

  /** The first line only, as an Error built with no stack frames would have it. */
  override get stack(): string {
    return `Error: ${this.message}`;
  }
}

/**
 * Builds the error to throw for a catalog code.
 * @example throw apiError('not_resumable', { message })
 */
export function apiError(code: ErrorCode, options: ApiErrorOptions = {}): ApiError {
  return ApiError.of(code, options);
}

/** 400 `parameter_invalid` naming the field at fault. */
export function invalidParam(param: string, message: string): ApiError {
  return apiError('parameter_invalid', { param, message });
}

/** `resource_not_found` naming the kind and id, the same answer for another account's ids. */
export function notFound(kind: string, id: string, param: string | null = null): ApiError {
  return apiError('resource_not_found', { message: MESSAGES.notFound(kind, id), param });
}
