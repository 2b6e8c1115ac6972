/**
 * How much a scenario makes, counted on the data as given, before it is validated or applied
 * (issue 36): a 1 MiB scenario of 200 twins with `generate_files: 100000` each, or of 300,000
 * empty twins, is refused before any of it is read further.
 */
import { MESSAGES } from '../../core/messages.js';

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
function rowsOf(o: Json): number {
  const generated = typeof o.generate_files === 'number' ? Math.max(0, o.generate_files) : 0;
  return lengthOf(o.files) + lengthOf(o.logs) + generated;
}

/** The field of an item that made its rows go over: the one that made most. */
const rowsField = (o: Json) =>
  typeof o.generate_files === 'number' && o.generate_files > 0
    ? 'generate_files'
    : lengthOf(o.files) >= lengthOf(o.logs)
      ? 'files'
      : 'logs';

/**
 * The first limit the scenario goes past, with where, or undefined. Every array of an account
 * (but `features`) is a list of records; an item's `files`, `logs` and `generate_files` are rows.
 * Nothing is allocated per item: a 1 MiB scenario holds some 300,000 of them.
 * @example scenarioSizeIssue(JSON.parse(text))
 */
export function scenarioSizeIssue(raw: unknown): SizeIssue | undefined {
  const scenario = objectOf(raw);
  if (!scenario) return undefined;
  let records = 0;
  let rows = 0;
  let recordsOver: (string | number)[] | undefined;
  let rowsOver: (string | number)[] | undefined;
  for (const field of ['faults', 'outcome_rules']) {
    records += lengthOf(scenario[field]);
    if (records > SCENARIO_MAX_RECORDS) recordsOver ??= [field];
  }
  const accounts = Array.isArray(scenario.accounts) ? scenario.accounts : [];
  for (let i = 0; i < accounts.length; i++) {
    if (++records > SCENARIO_MAX_RECORDS) recordsOver ??= ['accounts', i];
    const account = objectOf(accounts[i]) ?? {};
    for (const field in account) {
      const items = account[field];
      if (field === 'features' || !Array.isArray(items)) continue;
      const before = records;
      records += items.length;
      if (records > SCENARIO_MAX_RECORDS)
        recordsOver ??= ['accounts', i, field, Math.max(0, SCENARIO_MAX_RECORDS - before)];
      for (let j = 0; j < items.length; j++) {
        const item = objectOf(items[j]);
        if (!item) continue;
        rows += rowsOf(item);
        if (rows > SCENARIO_MAX_ROWS) rowsOver ??= ['accounts', i, field, j, rowsField(item)];
      }
    }
  }
  if (recordsOver)
    return { path: recordsOver, message: MESSAGES.scenarioRecords(records, SCENARIO_MAX_RECORDS) };
  if (rowsOver) return { path: rowsOver, message: MESSAGES.scenarioRows(rows, SCENARIO_MAX_ROWS) };
  return undefined;
}
