/**
 * The one error catalog. Every error the emulator answers is an entry here: status, `type` and a
 * default message. Codes from the API document (section 7) and the ones DESIGN.md section 3 adds
 * (marked `inferred`). Handlers and domain code throw `apiError(code, ...)`; one `onError` renders
 * the envelope. No error text is written anywhere else.
 */

/** `type` per HTTP status, as the API document section 7 maps it. */
export function errorTypeForStatus(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  // 400, and the inferred 402, 408, 413 and 431 (DESIGN.md section 3; issue 9).
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
  /** True where the API document does not name the code and DESIGN.md section 3 decides it. */
  inferred?: boolean;
}

export const ERROR_CATALOG = {
  parameter_invalid: { status: 400, message: 'A request parameter is malformed or out of range.' },
  unsupported_version: {
    status: 400,
    message: 'The Service-Version header names a version this service does not support.',
  },
  camera_not_found: { status: 400, message: 'The requested camera is absent from the dataset.' },
  request_too_large: {
    status: 413,
    message: 'The request body is larger than 1 MiB.',
    inferred: true,
  },
  request_header_too_large: {
    status: 431,
    message: 'The request line or headers are too large (more than 16 KiB).',
    inferred: true,
  },
  request_malformed: {
    status: 400,
    message: 'The request is not valid HTTP/1.1 (bad method, path, headers or framing).',
    inferred: true,
  },
  request_timeout: {
    status: 408,
    message: 'The request was not received in time.',
    inferred: true,
  },
  unauthenticated: {
    status: 401,
    message: 'The API key is missing, invalid, revoked or expired.',
  },
  insufficient_tokens: {
    status: 402,
    message: 'The account does not have enough tokens for this run.',
  },
  missing_scope: { status: 403, message: 'The API key lacks the scope this call needs.' },
  feature_not_enabled: {
    status: 403,
    message: 'This feature is not enabled for the account.',
    inferred: true,
  },
  download_expired: { status: 403, message: 'The download link has expired.', inferred: true },
  resource_not_found: { status: 404, message: 'No such resource.' },
  not_cancelable: { status: 409, message: "The run's state does not allow cancellation." },
  not_resumable: {
    status: 409,
    message: 'Only a failed or canceled run with a resumable error can be resumed.',
    inferred: true,
  },
  idempotency_key_reused: {
    status: 409,
    message: 'This Idempotency-Key was used with a different request.',
  },
  twin_not_ready: { status: 409, message: 'The twin has not succeeded; its files are not ready.' },
  run_not_ready: {
    status: 409,
    message: 'The run has not succeeded; its files are not ready.',
    inferred: true,
  },
  range_not_satisfiable: {
    status: 416,
    message: 'The requested range is outside the archive.',
    inferred: true,
  },
  rate_limit_exceeded: { status: 429, message: 'Too many requests. Retry after the given delay.' },
  concurrency_limit_exceeded: {
    status: 429,
    message: 'Too many concurrent runs. Retry after the given delay.',
  },
  capacity_exceeded: {
    status: 429,
    message: 'The service is at capacity. Retry after the given delay.',
  },
  launch_failed: { status: 502, message: 'An upstream service failed. It is safe to retry.' },
  api_error: { status: 500, message: 'The server failed to handle the request.' },
  control_unauthorized: {
    status: 401,
    message: 'The control API needs a valid X-Control-Token header.',
    inferred: true,
  },
  cross_origin_forbidden: {
    status: 403,
    message:
      'The control API refuses requests from another web origin; start the emulator with --control-allow-origin to allow one.',
    inferred: true,
  },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, code);
}

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

/** An error that renders as the API document's envelope (section 7). */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param: string | null;
  readonly details: Record<string, unknown> | null;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: string,
    options: ApiErrorOptions = {},
  ) {
    const entry: CatalogEntry | undefined = isErrorCode(code) ? ERROR_CATALOG[code] : undefined;
    super(options.message ?? entry?.message ?? ERROR_CATALOG.api_error.message);
    this.status = options.status ?? entry?.status ?? 500;
    this.type = errorTypeForStatus(this.status);
    this.param = options.param ?? null;
    this.details = options.details ?? null;
    this.headers = options.headers ?? {};
  }
}

/**
 * Builds the error to throw for a catalog code.
 * @example throw apiError('twin_not_ready', { param: 'twin_id' })
 */
export function apiError(code: ErrorCode, options: ApiErrorOptions = {}): ApiError {
  return new ApiError(code, options);
}

/** `resource_not_found` naming the kind and id, the same answer for another account's ids. */
export function notFound(kind: string, id: string, param: string | null = null): ApiError {
  return apiError('resource_not_found', { message: `No such ${kind}: '${id}'.`, param });
}
