/**
 * What each column of the world's tables must hold to be read back (issue 36): a snapshot file's
 * rows are checked against these before any of them is written, so that a file edited and sealed
 * again with a new `sha256` (a plain checksum) cannot bring in a value the repositories cannot
 * read (`clock_now: "abc"`, `features` that is not JSON), which would answer 500 from then on.
 */
import { z } from 'zod';
import { LimitsSchema } from '../../core/accounts/limits.js';
import { MAX_VIRTUAL_MS, MIN_VIRTUAL_MS, parseClockMode } from '../../core/clock-mode.js';
import { RUN_STATUSES } from '../../engine/contract/run-shapes.js';
import { stateFromText } from '../../engine/store/run-state-text.js';

/** What the registered kinds contribute: run kinds' names and the scopes a key may hold. */
export interface ColumnContext {
  kindNames: readonly string[];
  scopes: readonly string[];
}

const text = z.string();
const int = z.number().int();
const instant = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), 'expected an RFC 3339 instant');
const anObject = z.record(z.string(), z.unknown());

/** A run's state as every read of it needs it (domain/records.ts `RunState`); more may follow. */
const RunStateShape = z.looseObject({
  status: z.enum(RUN_STATUSES),
  phase: text.nullable(),
  progress: z.number().min(0).max(1),
  status_message: text.nullable(),
  episodes: z.looseObject({ done: int, total: int }).nullable(),
  error: z.looseObject({ code: text, message: text }).nullable(),
  result: anObject.nullable(),
  download: anObject.nullable(),
  tokens: z.looseObject({ charged: int, refunded: int }),
  service_version: text.nullable(),
  started_at: instant.nullable(),
  completed_at: instant.nullable(),
  run: z.looseObject({ attempt: int, schedule: z.looseObject({ startMs: int }) }).optional(),
});

/** A TEXT column holding JSON that `inner` accepts, read as the repositories read it. */
function json(inner: z.ZodType, parse: (text: string) => unknown = JSON.parse, what = 'JSON') {
  return z
    .string()
    .transform((value, ctx) => {
      try {
        return parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: `expected ${what} text` });
        return z.NEVER;
      }
    })
    .pipe(inner);
}

/** The checks of every column of every table a snapshot copies, by table, then column. */
export function columnChecks(ctx: ColumnContext): Record<string, Record<string, z.ZodType>> {
  const owned = { id: text.min(1), account_id: text.min(1) };
  const kinds = z.enum(ctx.kindNames as [string, ...string[]]);
  return {
    accounts: {
      id: text.min(1),
      name: text,
      features: json(z.array(text)),
      token_balance: int,
      limits: json(LimitsSchema),
      download_mode: z.enum(['auth', 'signed']),
      clock_mode: text.refine((v) => parseClockMode(v) !== undefined, 'expected a clock mode'),
      clock_now: int.min(MIN_VIRTUAL_MS).max(MAX_VIRTUAL_MS),
      clock_wall: int.nullable(),
      created_at: instant,
    },
    api_keys: {
      ...owned,
      name: text,
      scopes: json(z.array(z.enum(ctx.scopes as [string, ...string[]]))),
      secret_sha256: z.instanceof(Buffer).refine((b) => b.length === 32, 'expected 32 bytes'),
      created_at: instant,
      expires_at: instant.nullable(),
      revoked_at: instant.nullable(),
    },
    runs: {
      seq: int,
      ...owned,
      kind: kinds,
      request: json(anObject),
      state: json(RunStateShape, stateFromText, 'run state'),
      status: z.enum(RUN_STATUSES),
      created_at: instant,
      next_at: int.nullable(),
    },
    run_logs: { run_id: text, seq: int, line: text },
    run_files: { run_id: text, path: text, bytes: int.min(0), sha256: text },
    scenarios: { seq: int, ...owned, body: json(anObject), created_at: instant },
    user_assets: {
      seq: int,
      ...owned,
      kind: z.enum(['environment', 'object']),
      name: text,
      status: text,
      created_at: instant,
      description: text.nullable(),
      metadata: json(anObject),
      ready_at: instant.nullable(),
      outcome: text.nullable(),
    },
    webhook_endpoints: {
      seq: int,
      ...owned,
      url: text,
      events: json(z.array(text)),
      description: text.nullable(),
      metadata: json(anObject),
      created_at: instant,
      deleted_at: instant.nullable(),
      disabled_at: instant.nullable(),
      failing_since: int.nullable(),
    },
    webhook_deliveries: {
      seq: int,
      account_id: owned.account_id,
      event_id: text,
      event_type: text,
      endpoint_id: text,
      url: text,
      status: z.enum(['pending', 'delivered', 'failed']),
      attempts: json(z.array(anObject)),
      created_at: int,
      next_at: int.nullable(),
      series: int.min(1),
    },
    events: {
      seq: int,
      ...owned,
      type: text,
      resource_id: text,
      previous_status: text.nullable(),
      snapshot: json(anObject).nullable(),
      attempt: int.nullable(),
      n: int,
      created_at: instant,
    },
    idempotency_records: {
      seq: int,
      account_id: owned.account_id,
      key: text,
      request_hash: text,
      status: int,
      headers: json(z.record(z.string(), z.string())),
      body: text,
      created_at_ms: int,
    },
    sequences: { stream: text, value: int },
    sqlite_sequence: { name: text, seq: int },
  };
}

/** A column at fault: where, and what was expected. */
export interface ColumnIssue {
  table: string;
  row: number;
  column: string;
  message: string;
}

/**
 * The first cell of `rows` (each in `columns` order, BLOBs as Buffers) its column does not
 * accept, or undefined. A column with no check is this module's omission, not the file's.
 * @example firstBadCell(columnChecks(ctx), 'accounts', ['id', ...], rows)
 */
export function firstBadCell(
  checks: ReturnType<typeof columnChecks>,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
): ColumnIssue | undefined {
  const byColumn = columns.map((column) => {
    const check = checks[table]?.[column];
    if (!check) throw new Error(`snapshot-columns.ts has no check for ${table}.${column}`);
    return check;
  });
  for (const [row, cells] of rows.entries())
    for (const [i, check] of byColumn.entries()) {
      const result = check.safeParse(cells[i]);
      if (!result.success) {
        // Inside a JSON column, where: `state.tokens: Invalid input: expected object`.
        const { path, message } = result.error.issues[0]!;
        const inside = path.length > 0 ? `${path.map(String).join('.')}: ` : '';
        return { table, row, column: columns[i]!, message: `${inside}${message}` };
      }
    }
  return undefined;
}
