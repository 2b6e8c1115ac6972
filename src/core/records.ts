/** The records the store keeps and the domain works on. API shapes come from the contract. */
import type { z } from 'zod';
import type { OutcomeEntry } from '../engine/contract/outcomes.js';
import type {
  Download,
  RunError,
  RunStatus,
  StepCounter,
  Tokens,
} from '../engine/contract/run-shapes.js';
import type { Schedule } from '../engine/timeline/schedule.js';
import type { FileEntry } from './contract.js';
import type { LimitsSchema } from './control-inputs.js';

export interface Account {
  id: string;
  name: string;
  features: string[];
  tokenBalance: number;
  limits: z.infer<typeof LimitsSchema>;
  downloadMode: 'auth' | 'signed';
  clockMode: string;
  /** Virtual ms at the clock's anchor; where a restarted emulator's clock resumes. */
  clockNow: number;
  /** Wall ms at which the clock stood at `clockNow` (null: not anchored yet). */
  clockWall: number | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** What the caller asked for, which a resume runs again: the shared fields and the kind's own. */
export interface RunRequest {
  options: Record<string, unknown>;
  label: string | null;
  webhook_metadata: Record<string, unknown> | null;
  [field: string]: unknown;
}

/** The run's current, materialized state: every field of its body the request does not fix. */
export interface RunState {
  status: RunStatus;
  /** One of the kind's phases. */
  phase: string | null;
  progress: number;
  status_message: string | null;
  /** Steps of the stepped phase, done of total. */
  episodes: StepCounter | null;
  error: RunError | null;
  /** The kind's outputs. */
  result: Record<string, unknown> | null;
  download: Download | null;
  tokens: Tokens;
  service_version: string | null;
  started_at: string | null;
  completed_at: string | null;
  /** The outcome plan; attempt N takes entry N (DESIGN.md section 4 "Outcomes"). */
  plan?: OutcomeEntry[];
  /** The current attempt on the clock; absent for a run seeded in a fixed state. */
  run?: RunAttempt;
  /** A cancel of a run seeded in a fixed state (no attempt): `canceling` until `doneAt`. */
  cancel?: { at: number; doneAt: number };
  /** The token of the signed download link, in signed download mode. */
  download_token?: string;
  /** Succeeded, its archive not built yet (runtime/engine/pending-archives.ts); no `download`. */
  archive_pending?: true;
  /** Seeded with a file listing of its own: success keeps it and builds no archive. */
  given_files?: boolean;
  /** A run without an attempt has log or listing rows, which its first resumed attempt drops. */
  stored_rows?: true;
}

/** One attempt of a run on the virtual clock (DESIGN.md section 4). */
export interface RunAttempt {
  attempt: number;
  schedule: Schedule;
  outcome: OutcomeEntry;
  /** Tokens charged when the attempt started. */
  estimate: number;
  cancel: { at: number; doneAt: number } | null;
  /** Events at or before this instant have been applied. */
  appliedUntil: number;
}

/** A run of any kind (DESIGN.md section 7): one row of the `runs` table. */
export interface RunRecord<Req extends RunRequest = RunRequest> {
  id: string;
  accountId: string;
  /** The run kind's name, its `object`. */
  kind: string;
  createdAt: string;
  request: Req;
  state: RunState;
  /** When the next unapplied transition is due; null when nothing is pending. */
  nextAt: number | null;
}

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  deletedAt: string | null;
  /** Virtual instant it was disabled (every delivery failing for 5 virtual days); null if enabled. */
  disabledAt: string | null;
  /** Receiver chaos (docs/runtime.md "Receiver chaos"): each kind's probability; null for none. */
  chaos: WebhookChaos | null;
}

/** The probability (0 to 1) of each kind of receiver chaos, drawn per delivery from the seed. */
export interface WebhookChaos {
  duplicate: number;
  out_of_order: number;
  stale_timestamp: number;
  bad_signature: number;
  unknown_type: number;
}

export type UserAssetKind = 'environment' | 'object';

export interface UserAssetRecord {
  id: string;
  accountId: string;
  kind: UserAssetKind;
  name: string;
  status: string;
  createdAt: string;
  /** Created through the API (inferred): `validating` until `readyAt`, then `outcome`. */
  description?: string | null;
  metadata?: Record<string, unknown>;
  readyAt?: string | null;
  outcome?: string | null;
}

export type { FileEntry };

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
