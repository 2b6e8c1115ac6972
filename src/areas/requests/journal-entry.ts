/** One product request in the journal (DESIGN.md section 5). */
export interface JournalEntry {
  request_id: string;
  method: string;
  path: string;
  /** The route template, null for a path no route serves. */
  route: string | null;
  operation: string | null;
  /** Null when a fault rule dropped the connection: no response was sent. */
  status: number | null;
  /** The error code of an error response. */
  code: string | null;
  account_id: string | null;
  key_id: string | null;
  /** The fault rule that decided the response, if one did. */
  fault_id: string | null;
  idempotent_replayed: boolean;
  /** Virtual time (ms): the account's clock, or the emulator's when no account is known. */
  at_ms: number;
  /** Wall time (ms) the answer was decided (or the connection ended); `wall_ms - duration_ms` is its receipt. */
  wall_ms: number;
  duration_ms: number;
  /** The `Idempotency-Key` sent, if any. */
  idempotency_key: string | null;
  /** A digest of the request body the call read (first 16 hex of its sha256), to tell a resend unchanged. */
  body_digest: string | null;
  /** The seconds of the answer's `Retry-After`, if it had one. */
  retry_after: number | null;
  /** The fault struck after the call did its work: the resource was made or changed, the answer lost. */
  fault_after: boolean;
  /** What the work answered before a fault `after` replaced the answer; null otherwise. */
  work_status: number | null;
  /** A hang fault held the answer this long (wall ms), then closed the connection; null otherwise. */
  hang_ms: number | null;
  /** The client closed the connection before any answer (seen during a delay or a hang). */
  client_closed: boolean;
  /** The id of the resource a create made (its 201's `id`). */
  resource_id: string | null;
}
