/**
 * A world snapshot as a file (inferred; DESIGN.md section 8 "Snapshots"): what
 * `GET /_control/snapshots/{name}/download` answers and `--snapshot FILE` starts from.
 */
import { z } from '@hono/zod-openapi';
import { FaultRuleInput } from '../faults/contract.js';

/** The `format` every snapshot file names first. */
export const SNAPSHOT_FORMAT = 'svc-emulator-snapshot';

/**
 * The largest snapshot file `--snapshot FILE` reads: parsed whole, it takes several times its
 * size in memory (a world of 3,000 runs is a file of about 10 MB).
 */
export const SNAPSHOT_FILE_MAX_BYTES = 128 * 1024 * 1024;

/** A snapshot's name: in paths, file names and the harness, so plain characters only. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const SNAPSHOT_NAME_RULE =
  'expected 1 to 64 letters, digits, _, . or -, starting with a letter or digit';

export const SnapshotScope = z.enum(['world', 'account']);
export type SnapshotScope = z.infer<typeof SnapshotScope>;

/** A SQLite value; a BLOB as base64. */
const Cell = z.union([z.null(), z.number(), z.string(), z.object({ base64: z.string() }).strict()]);

/** One table's rows, each in `columns` order. */
const TableRows = z.object({ columns: z.array(z.string()), rows: z.array(z.array(Cell)) }).strict();
export type TableRows = z.infer<typeof TableRows>;

const Word = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);
/** A PRNG stream's state (src/core/prng.ts). */
const PrngStateSchema = z.tuple([Word, Word, Word, Word]);

const StoredFaultRule = FaultRuleInput.extend({
  id: z.string(),
  createdAt: z.string(),
  hits: z.number().int().min(0),
  skipped: z.number().int().min(0),
}).strict();

const JournalEntrySchema = z
  .object({
    request_id: z.string(),
    method: z.string(),
    path: z.string(),
    route: z.string().nullable(),
    operation: z.string().nullable(),
    status: z.number().int().nullable(),
    code: z.string().nullable(),
    account_id: z.string().nullable(),
    key_id: z.string().nullable(),
    fault_id: z.string().nullable(),
    idempotent_replayed: z.boolean(),
    at_ms: z.number(),
    wall_ms: z.number(),
    duration_ms: z.number(),
    // Added by issue 38; a file saved before them reads them as absent.
    idempotency_key: z.string().nullable().default(null),
    body_digest: z.string().nullable().default(null),
    retry_after: z.number().nullable().default(null),
    fault_after: z.boolean().default(false),
    work_status: z.number().int().nullable().default(null),
    hang_ms: z.number().nullable().default(null),
    client_closed: z.boolean().default(false),
    resource_id: z.string().nullable().default(null),
  })
  .strict();

/**
 * What lives outside SQLite and comes back with a restore. The parts of the whole emulator
 * (request ids, fault rules, its own clock, the scenario resets return to) are null in an
 * account's snapshot.
 */
export const SnapshotState = z
  .object({
    request_ids: PrngStateSchema.nullable(),
    faults: z.object({ rules: z.array(StoredFaultRule), draw: PrngStateSchema }).nullable(),
    system_clock: z.object({ mode: z.string(), now: z.number() }).nullable(),
    /** The loaded scenario, checked against the registered kinds when read. */
    scenario: z.record(z.string(), z.unknown()).nullable(),
    journal: z.array(JournalEntrySchema),
    rate_limits: z.record(z.string(), z.array(z.number())),
    /** Per account, the succeeded runs whose archives are still to build, in order. */
    archives_owed: z.record(z.string(), z.array(z.string())),
  })
  .strict();
export type SnapshotState = z.infer<typeof SnapshotState>;
/** The state as a copy keeps it beside its tables: the journal is with the tables (snapshot-tables.ts). */
export type HeldState = Omit<SnapshotState, 'journal'>;

/** The first fields of a file, read before anything else so another version is named plainly. */
export const SnapshotHeader = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  emulator_version: z.string(),
  schema_version: z.number().int(),
});

/** `sha256` is the digest of `JSON.stringify(world)`: a file changed or cut short is refused. */
export const SnapshotFile = SnapshotHeader.extend({
  name: z.string().regex(SNAPSHOT_NAME),
  created_at: z.string(),
  scope: SnapshotScope,
  account: z.string().nullable(),
  seed: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  world: z.object({ tables: z.record(z.string(), TableRows), state: SnapshotState }).strict(),
}).strict();
export type SnapshotFile = z.infer<typeof SnapshotFile>;
