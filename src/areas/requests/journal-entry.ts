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
  /** Wall time (ms). */
  wall_ms: number;
  duration_ms: number;
}
