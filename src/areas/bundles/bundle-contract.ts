/**
 * A replay bundle as a file (inferred; DESIGN.md section 8 "Replay bundles"): a `.tar.gz` under
 * `svc-emulator-bundle/` holding `manifest.json` (versions, seed, settings, the mark),
 * `snapshot.json` (the world at the mark, a snapshot file), `calls.jsonl` (every call since, in
 * order, with the answer it got) and `webhooks.jsonl` (the webhook attempts, as they started and
 * ended). `GET /_control/bundle` writes it; `svc-emulator replay` and `--bundle` read it.
 */
import { z } from '@hono/zod-openapi';
import { SnapshotState } from '../snapshots/snapshot-file-contract.js';

export const BUNDLE_FORMAT = 'svc-emulator-bundle';
/** The folder every member of a bundle's archive sits in. */
export const BUNDLE_ROOT = 'svc-emulator-bundle';
/** The largest bundle `--bundle` and `replay` read: it is unpacked whole in memory. */
export const BUNDLE_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** What the emulator that recorded was started with, as far as its answers depend on it. */
export const BundleSettings = z
  .object({
    seed: z.string(),
    /** The clock mode of accounts that name none. */
    clock: z.string(),
    strict: z.boolean(),
    strict_versions: z.boolean(),
    journal_size: z.number().int().min(0),
    webhooks: z.boolean(),
    webhook_history: z.number().int().min(0),
    webhook_retry_schedule_ms: z.array(z.number().min(0)).nullable(),
    webhook_timeout_ms: z.number().int().min(1).nullable(),
    webhook_timestamps: z.enum(['wall', 'virtual']),
    settle_slice: z.number().int().min(1),
    snapshot_limit: z.number().int().min(1),
    snapshot_space_bytes: z.number().int().min(1),
    allowed_hosts: z.array(z.string()),
    control_allow_origins: z.array(z.string()),
    cors: z.array(z.string()),
    /** Whether `/_control` needed `X-Control-Token` (its value is never kept). */
    control_token: z.boolean(),
    /** Where the webhook deliveries' links pointed (the emulator's origin when it listened). */
    origin: z.string(),
    /** The name of the scenario loaded at the mark. */
    scenario: z.string(),
  })
  .strict();
export type BundleSettings = z.infer<typeof BundleSettings>;

const Header = z.tuple([z.string(), z.string()]);

/** An answer as recorded: its status (null: the connection was dropped), headers and body. */
export const RecordedAnswer = z
  .object({
    status: z.number().int().nullable(),
    /** Lower-case names; `date` and `server-timing` left out, request ids as `req_*`. */
    headers: z.array(Header),
    /**
     * The digest of the body (request ids, secrets and wall times masked in JSON and text), or
     * `streamed` for a body sent as it was made (compared by status and headers only).
     */
    body: z
      .union([
        z.object({ sha256: z.string(), bytes: z.number().int().min(0) }).strict(),
        z.literal('streamed'),
      ])
      .nullable(),
  })
  .strict();
export type RecordedAnswer = z.infer<typeof RecordedAnswer>;

const AttemptCounts = z
  .object({ started: z.number().int().min(0), answered: z.number().int().min(0) })
  .strict();
export type AttemptCounts = z.infer<typeof AttemptCounts>;

export const CallKind = z.enum(['product', 'clock', 'fault', 'control']);
export type CallKind = z.infer<typeof CallKind>;

/** One call as `calls.jsonl` holds it, one a line. */
export const RecordedCall = z
  .object({
    /** Its place in arrival order, from 1. */
    n: z.number().int().min(1),
    kind: CallKind,
    method: z.string(),
    /** Path and query, as sent. */
    path: z.string(),
    /** As sent, in order; key secrets and the control token replaced by labels (`{{key:key_...}}`). */
    headers: z.array(Header),
    /** The body as read (labels for secrets), null when none was read. */
    body: z.string().nullable(),
    /** The account the call concerned, null for the whole emulator's. */
    account: z.string().nullable(),
    /** The account this call created (`POST /_control/accounts`). */
    creates_account: z.string().nullable(),
    /** Whether another call was in flight while it was: their order may have mattered. */
    overlapped: z.boolean(),
    /**
     * Webhook attempts started and answered since the mark when the call arrived (`before`) and
     * when it was answered (`after`): a replay lets the attempts run as far before each call.
     */
    webhooks: z.object({ before: AttemptCounts, after: AttemptCounts }).strict(),
    answer: RecordedAnswer,
  })
  .strict();
export type RecordedCall = z.infer<typeof RecordedCall>;

/** One webhook attempt starting or ending, as `webhooks.jsonl` holds it. */
export const AttemptEvent = z
  .object({
    event: z.enum(['started', 'answered']),
    delivery: z.string(),
    series: z.number().int().min(1),
    number: z.number().int().min(1),
    status_code: z.number().int().nullable().optional(),
    error: z.string().nullable().optional(),
    response_body: z.string().nullable().optional(),
  })
  .strict();
export type AttemptEvent = z.infer<typeof AttemptEvent>;

export const MarkReason = z.enum(['start', 'reset', 'mark']);
export type MarkReason = z.infer<typeof MarkReason>;

export const BundleManifest = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    emulator_version: z.string(),
    schema_version: z.number().int(),
    scope: z.enum(['world', 'account']),
    account: z.string().nullable(),
    mark: z.object({ reason: MarkReason, wall_at: z.string() }).strict(),
    settings: BundleSettings,
    calls: z.number().int().min(0),
    webhook_attempts: z.number().int().min(0),
    /** The scenario a reset goes back to, its keys' secrets replaced (bundle-file.ts). */
    scenario: z.record(z.string(), z.unknown()),
    /** An account's bundle: the fault rules at the mark (the world's part it needs). */
    faults: SnapshotState.shape.faults,
  })
  .strict();
export type BundleManifest = z.infer<typeof BundleManifest>;
