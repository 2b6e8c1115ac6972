/** The records of runs the engine keeps (DESIGN.md sections 4 and 7). API shapes come from the contract. */
import type { OutcomeEntry } from './contract/outcomes.js';
import type { Download, RunError, RunStatus, StepCounter, Tokens } from './contract/run-shapes.js';
import type { Schedule } from './timeline/schedule.js';

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
