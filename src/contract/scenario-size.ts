/**
 * How much a scenario makes, counted on the data as given, before it is validated or applied
 * (issue 36): a 1 MiB scenario of 200 twins with `generate_files: 100000` each, or of 300,000
 * empty twins, is refused before any of it is read further.
 */
import { MESSAGES } from '../messages.js';

/** Records one scenario makes at most: accounts, keys, runs, endpoints, assets, fault and outcome rules. */
export const SCENARIO_MAX_RECORDS = 2_000;
/** Rows one scenario makes at most: the files and log lines of its runs and twins. */
export const SCENARIO_MAX_ROWS = 20_000;

export interface SizeIssue {
  /** Where the count went past its limit. */
  path: (string | number)[];
  message: string;
}

type Json = Record<string, unknown>;
const objectOf = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const lengthOf = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** The rows one seeded item makes: its `files` and `logs`, and the files it `generate_files`. */
function rowsOf(item: unknown): { rows: number; field: string } {
  const o = objectOf(item);
  if (!o) return { rows: 0, field: '' };
  const generated = typeof o.generate_files === 'number' ? Math.max(0, o.generate_files) : 0;
  const rows = lengthOf(o.files) + lengthOf(o.logs) + generated;
  return {
    rows,
    field: generated > 0 ? 'generate_files' : Array.isArray(o.files) ? 'files' : 'logs',
  };
}

/** A running count and where it first went past its limit. */
function counter(limit: number) {
  const state = { total: 0, over: undefined as (string | number)[] | undefined };
  return {
    state,
    add(n: number, path: (string | number)[]) {
      state.total += n;
      if (state.total > limit && !state.over) state.over = path;
    },
  };
}

/**
 * The first limit the scenario goes past, with where, or undefined. Every array of an account
 * (but `features`) is a list of records; an item's `files`, `logs` and `generate_files` are rows.
 * @example scenarioSizeIssue(JSON.parse(text))
 */
export function scenarioSizeIssue(raw: unknown): SizeIssue | undefined {
  const scenario = objectOf(raw);
  if (!scenario) return undefined;
  const records = counter(SCENARIO_MAX_RECORDS);
  const rows = counter(SCENARIO_MAX_ROWS);
  for (const field of ['faults', 'outcome_rules']) records.add(lengthOf(scenario[field]), [field]);
  const accounts = Array.isArray(scenario.accounts) ? scenario.accounts : [];
  for (const [i, account] of accounts.entries()) {
    records.add(1, ['accounts', i]);
    for (const [field, items] of Object.entries(objectOf(account) ?? {})) {
      if (field === 'features' || !Array.isArray(items)) continue;
      for (const [j, item] of items.entries()) {
        records.add(1, ['accounts', i, field, j]);
        const made = rowsOf(item);
        rows.add(made.rows, ['accounts', i, field, j, made.field]);
      }
    }
  }
  if (records.state.over)
    return {
      path: records.state.over,
      message: MESSAGES.scenarioRecords(records.state.total, SCENARIO_MAX_RECORDS),
    };
  if (rows.state.over)
    return {
      path: rows.state.over,
      message: MESSAGES.scenarioRows(rows.state.total, SCENARIO_MAX_ROWS),
    };
  return undefined;
}
