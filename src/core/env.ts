import type { ServiceVersion } from './contract.js';
import type { Account, ApiKeyRecord } from './records.js';

/**
 * A request's variables (`c.get(...)`). The layers above add theirs as Hono's `ContextVariableMap`
 * is extended: engine/deps.ts adds `deps`.
 */
export interface AppVariables {
  requestId: string;
  version: ServiceVersion;
  /** A `Service-Version` value that names no supported version (set by the request context). */
  unsupportedVersion: string;
  auth: { account: Account; key: ApiKeyRecord };
  /** The caller's virtual now, fixed for the request once its account is settled. */
  now: number;
  /** Set by a fault: who the Authorization header names (authentication did not run). */
  caller: { accountId: string; keyId: string; account: Account | undefined } | null;
  /** The fault rule (or `X-Emulator-Fault`) that answered the call. */
  faultId: string;
  /** A fault dropped the connection: there is no response. */
  dropped: boolean;
  /** A fault that struck (issue 38): after the work or not, a hang's length, the work's status. */
  strike: { after: boolean; hangMs: number | null; workStatus: number | null };
  /** The client closed the connection before the answer (seen while a fault held the call). */
  clientClosed: boolean;
  /** The id of the resource a create made, for the journal. */
  resourceId: string;
  /** An Idempotency-Key replay. */
  replayed: boolean;
  /** The error code of the response, set by `envelopeAnswer` (core/envelope.ts). */
  errorCode: string;
  /** The error envelope answered, set by `envelopeAnswer` (the journal's detail keeps it). */
  errorBody: unknown;
  /** The whole seconds of the `Retry-After` that `envelopeAnswer` answered, null when none. */
  retryAfter: number | null;
  /** Headers set on Node's response, names lower-case (`setAnswerHeader`, answer-headers.ts). */
  nodeHeaders: string[];
}

export type AppEnv = { Variables: AppVariables };
