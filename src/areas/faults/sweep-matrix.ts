/**
 * A sweep's matrix (issue 38): per operation and fault, whether a call met it and what the client
 * did next, read from the journal: `recovered` (a later attempt of the same call succeeded),
 * `gave_up` (none did), `duplicated_write` (the work of a lost answer was done again),
 * `not_reached` (no call met it), `unknown` (the journal no longer holds the call, or it had no key).
 */
import { type ClientCall, callsByKey } from '../requests/calls.js';
import type { JournalEntry } from '../requests/journal.js';
import type { Sweep } from './sweeps.js';

export const CELL_OUTCOMES = [
  'recovered',
  'gave_up',
  'duplicated_write',
  'not_reached',
  'unknown',
] as const;
export type CellOutcome = (typeof CELL_OUTCOMES)[number];

export interface SweepCell {
  fault: string;
  outcome: CellOutcome;
  /** The call that met the fault. */
  request_id: string | null;
  /** The attempt that succeeded after it (recovered, duplicated), else the next one, if any. */
  next_request_id: string | null;
}

/** Where each attempt sits in its call. */
function attemptIndex(entries: Iterable<JournalEntry>) {
  const at = new Map<string, { call: ClientCall; i: number }>();
  for (const calls of callsByKey(entries).values())
    for (const call of calls)
      call.attempts.forEach((e, i) => {
        at.set(e.request_id, { call, i });
      });
  return at;
}

function cell(fault: string, requestId: string, at: ReturnType<typeof attemptIndex>): SweepCell {
  const found = at.get(requestId);
  if (!found) return { fault, outcome: 'unknown', request_id: requestId, next_request_id: null };
  const struck = found.call.attempts[found.i]!;
  const later = found.call.attempts.slice(found.i + 1);
  const success = later.find((e) => e.status !== null && e.status < 300);
  const lostWrite = struck.fault_after && struck.work_status !== null && struck.work_status < 300;
  const outcome: CellOutcome = !success
    ? 'gave_up'
    : lostWrite && struck.method === 'POST' && !success.idempotent_replayed
      ? 'duplicated_write'
      : 'recovered';
  const next = success ?? later[0];
  return { fault, outcome, request_id: requestId, next_request_id: next?.request_id ?? null };
}

/**
 * The sweep as `/_control/sweeps/{id}` shows it: its settings, the matrix (operations in the order
 * given or first called, faults in the sweep's order) and how many cells ended each way.
 * @example sweepView(sweep, deps.journal.filter({}))
 */
export function sweepView(sweep: Sweep, entries: Iterable<JournalEntry>) {
  const at = attemptIndex(entries);
  const matrix = [...sweep.state].map(([operation, state]) => ({
    operation,
    cells: sweep.faults.map((fault) => {
      const strike = state.strikes.find((s) => s.fault === fault);
      return strike
        ? cell(fault, strike.request_id, at)
        : { fault, outcome: 'not_reached' as const, request_id: null, next_request_id: null };
    }),
  }));
  const cells = matrix.flatMap((row) => row.cells);
  const count = (o: CellOutcome) => cells.filter((c) => c.outcome === o).length;
  return {
    id: sweep.id,
    object: 'sweep' as const,
    account: sweep.account,
    operations: sweep.operations,
    faults: sweep.faults,
    hang_ms: sweep.hangMs,
    created_at: sweep.createdAt,
    summary: {
      operations: matrix.length,
      cells: cells.length,
      met: cells.length - count('not_reached'),
      recovered: count('recovered'),
      gave_up: count('gave_up'),
      duplicated_write: count('duplicated_write'),
      not_reached: count('not_reached'),
      unknown: count('unknown'),
    },
    matrix,
  };
}

export type SweepView = ReturnType<typeof sweepView>;

/** The sweeps as Markdown (the coverage report's `.md` adds them): a table per sweep. */
export function sweepsMarkdown(views: readonly SweepView[]): string {
  if (views.length === 0) return '';
  const out = ['## Fault sweeps', ''];
  for (const v of views) {
    const s = v.summary;
    out.push(
      `### Sweep ${v.id}${v.account ? ` (account ${v.account})` : ''}`,
      '',
      `${s.met} of ${s.cells} cells met: ${s.recovered} recovered, ${s.gave_up} gave up, ${s.duplicated_write} duplicated the write, ${s.not_reached} not reached.`,
      '',
      `| operation | ${v.faults.map((f) => `\`${f}\``).join(' | ')} |`,
      `|---|${v.faults.map(() => '---').join('|')}|`,
      ...v.matrix.map(
        (row) =>
          `| \`${row.operation}\` | ${row.cells.map((c) => cellText(c.outcome)).join(' | ')} |`,
      ),
      '',
    );
  }
  return out.join('\n');
}

/** A cell as the Markdown shows it: what the client got wrong in bold. */
function cellText(outcome: CellOutcome): string {
  const text = outcome.replaceAll('_', ' ');
  return outcome === 'gave_up' || outcome === 'duplicated_write' ? `**${text}**` : text;
}
