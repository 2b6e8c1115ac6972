/**
 * How much a scenario makes, counted on the data as given, before it is validated or applied
 * (issue 36): a 1 MiB scenario of 200 twins with `generate_files: 100000` each, or of 300,000
 * empty twins, is refused before any of it is read further. An inline scenario is counted on the
 * body's text, before it is parsed (`scenarioBodySizeIssue`): parsing 300,000 objects held the
 * event loop 150 to 500 ms.
 */
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  JsonScan,
  NotJson,
  OPEN_BRACE,
  OPEN_BRACKET,
} from '../../core/json-scan.js';
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

/** An item of a list that makes rows: its index, its rows, and the field that made most. */
interface ItemRows {
  index: number;
  rows: number;
  field: 'generate_files' | 'files' | 'logs';
}

/** One of an account's lists of records (any array but `features`), with its items that make rows. */
interface ListCounts {
  field: string;
  length: number;
  rows: ItemRows[];
}

/**
 * What the limits count, as the data gives it: the number of accounts, and the lists of those
 * that have any, in the order a parsed account's fields are enumerated. Lists of no item change
 * no count and are left out, so 300,000 empty twins are one list.
 */
interface ScenarioCounts {
  faults: number;
  outcomeRules: number;
  accounts: number;
  lists: { account: number; lists: ListCounts[] }[];
}

type Json = Record<string, unknown>;
const objectOf = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const lengthOf = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** An item's rows, from its `files` and `logs` lengths and its `generate_files` if a number. */
function itemRows(
  index: number,
  files: number,
  logs: number,
  generate: number | undefined,
): ItemRows | undefined {
  const rows = files + logs + (generate === undefined ? 0 : Math.max(0, generate));
  // NaN (a YAML `.nan`) is kept: it makes every later sum NaN, as it would.
  if (rows === 0) return undefined;
  const field =
    generate !== undefined && generate > 0 ? 'generate_files' : files >= logs ? 'files' : 'logs';
  return { index, rows, field };
}

/** The counts of parsed data (a scenario file, JSON or YAML). */
function countsOf(raw: unknown): ScenarioCounts | undefined {
  const scenario = objectOf(raw);
  if (!scenario) return undefined;
  const accounts = Array.isArray(scenario.accounts) ? scenario.accounts : [];
  const counts: ScenarioCounts = {
    faults: lengthOf(scenario.faults),
    outcomeRules: lengthOf(scenario.outcome_rules),
    accounts: accounts.length,
    lists: [],
  };
  for (let i = 0; i < accounts.length; i++) {
    const account = objectOf(accounts[i]) ?? {};
    const lists: ListCounts[] = [];
    for (const field in account) {
      const items = account[field];
      if (field === 'features' || !Array.isArray(items) || items.length === 0) continue;
      const list: ListCounts = { field, length: items.length, rows: [] };
      for (let j = 0; j < items.length; j++) {
        const item = objectOf(items[j]);
        if (!item) continue;
        const generate = typeof item.generate_files === 'number' ? item.generate_files : undefined;
        const rows = itemRows(j, lengthOf(item.files), lengthOf(item.logs), generate);
        if (rows) list.rows.push(rows);
      }
      lists.push(list);
    }
    if (lists.length > 0) counts.lists.push({ account: i, lists });
  }
  return counts;
}

/** The first limit the counts go past, with where, or undefined. */
function issueOf(counts: ScenarioCounts | undefined): SizeIssue | undefined {
  if (!counts) return undefined;
  let records = 0;
  let rows = 0;
  let recordsOver: (string | number)[] | undefined;
  let rowsOver: (string | number)[] | undefined;
  records += counts.faults;
  if (records > SCENARIO_MAX_RECORDS) recordsOver ??= ['faults'];
  records += counts.outcomeRules;
  if (records > SCENARIO_MAX_RECORDS) recordsOver ??= ['outcome_rules'];
  let next = 0;
  for (let i = 0; i < counts.accounts; i++) {
    if (++records > SCENARIO_MAX_RECORDS) recordsOver ??= ['accounts', i];
    if (counts.lists[next]?.account !== i) continue;
    for (const { field, length, rows: items } of counts.lists[next++]!.lists) {
      const before = records;
      records += length;
      if (records > SCENARIO_MAX_RECORDS)
        recordsOver ??= ['accounts', i, field, Math.max(0, SCENARIO_MAX_RECORDS - before)];
      for (const item of items) {
        rows += item.rows;
        if (rows > SCENARIO_MAX_ROWS) rowsOver ??= ['accounts', i, field, item.index, item.field];
      }
    }
  }
  if (recordsOver)
    return { path: recordsOver, message: MESSAGES.scenarioRecords(records, SCENARIO_MAX_RECORDS) };
  if (rowsOver) return { path: rowsOver, message: MESSAGES.scenarioRows(rows, SCENARIO_MAX_ROWS) };
  return undefined;
}

/**
 * The first limit the scenario goes past, with where, or undefined. Every array of an account
 * (but `features`) is a list of records; an item's `files`, `logs` and `generate_files` are rows.
 * @example scenarioSizeIssue(JSON.parse(text))
 */
export function scenarioSizeIssue(raw: unknown): SizeIssue | undefined {
  return issueOf(countsOf(raw));
}

/** A key that parsed data enumerates before the others, in numeric order: an array index. */
const isIndexKey = (key: string) => /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;

/** An item's rows, read from the text; the cursor on the item. */
function scanItem(scan: JsonScan, index: number): ItemRows | undefined {
  if (!scan.at(OPEN_BRACE)) {
    scan.value();
    return undefined;
  }
  if (!scan.open(OPEN_BRACE)) return undefined;
  let files = 0;
  let logs = 0;
  let generate: number | undefined;
  do {
    const key = scan.key();
    if (key === 'files') files = scan.arrayLength() ?? 0;
    else if (key === 'logs') logs = scan.arrayLength() ?? 0;
    else if (key === 'generate_files') generate = scan.numberValue();
    else scan.value();
  } while (scan.next(CLOSE_BRACE));
  return itemRows(index, files, logs, generate);
}

/** A list of an account, read from the text; the cursor on the array. */
function scanList(scan: JsonScan, field: string): ListCounts {
  const list: ListCounts = { field, length: 0, rows: [] };
  if (scan.open(OPEN_BRACKET))
    do {
      const rows = scanItem(scan, list.length++);
      if (rows) list.rows.push(rows);
    } while (scan.next(CLOSE_BRACKET));
  return list;
}

/**
 * An account's lists, read from the text: enumerated as a parsed object's keys would be. Without
 * `rows`, only their lengths are read (their items' rows left empty).
 */
function scanAccount(scan: JsonScan, rows: boolean): ListCounts[] | undefined {
  if (scan.peek() !== 'object') {
    scan.value();
    return undefined;
  }
  if (!scan.open(OPEN_BRACE)) return undefined;
  // A repeated key keeps its first place and its last value, as in a parsed object.
  const fields = new Map<string, ListCounts | undefined>();
  do {
    const field = scan.key();
    if (field === 'features' || scan.peek() !== 'array') {
      scan.value();
      fields.set(field, undefined);
    } else {
      const list = rows
        ? scanList(scan, field)
        : { field, length: scan.arrayLength() ?? 0, rows: [] };
      fields.set(field, list.length > 0 ? list : undefined);
    }
  } while (scan.next(CLOSE_BRACE));
  const keys = [...fields.keys()];
  const indexes = keys.filter(isIndexKey).sort((a, b) => Number(a) - Number(b));
  const ordered = [...indexes, ...keys.filter((k) => !isIndexKey(k))];
  const lists = ordered.flatMap((k) => fields.get(k) ?? []);
  return lists.length > 0 ? lists : undefined;
}

/** The counts of a scenario, read from the text; with `rows` or without (`scanAccount`). */
function scanScenario(scan: JsonScan, rows: boolean): ScenarioCounts | undefined {
  if (scan.peek() !== 'object') {
    scan.value();
    return undefined;
  }
  const counts: ScenarioCounts = { faults: 0, outcomeRules: 0, accounts: 0, lists: [] };
  if (scan.open(OPEN_BRACE))
    do {
      const key = scan.key();
      if (key === 'faults') counts.faults = scan.arrayLength() ?? 0;
      else if (key === 'outcome_rules') counts.outcomeRules = scan.arrayLength() ?? 0;
      else if (key !== 'accounts') scan.value();
      else {
        // The last `accounts` counts, whatever came before.
        counts.accounts = 0;
        counts.lists = [];
        if (scan.peek() !== 'array') scan.value();
        else if (scan.open(OPEN_BRACKET))
          do {
            const lists = scanAccount(scan, rows);
            if (lists) counts.lists.push({ account: counts.accounts, lists });
            counts.accounts++;
          } while (scan.next(CLOSE_BRACKET));
      }
    } while (scan.next(CLOSE_BRACE));
  return counts;
}

/**
 * The size issue of an inline scenario load's body (`{"scenario": {...}}`), read from its text
 * without parsing it, when it is the first issue the body's schema would report: the text is
 * JSON, an object whose `name`, if any, is a string, and whose `scenario` goes past a limit. The
 * path is within `scenario`. Undefined in any other case, which the schema then tells. The
 * records are counted first, on the lists' lengths alone: past their limit (300,000 empty twins),
 * that is the issue told whatever the rows, and no item is read.
 * @example scenarioBodySizeIssue('{"scenario": {"name": "x", "accounts": []}}') // undefined
 */
export function scenarioBodySizeIssue(text: string): SizeIssue | undefined {
  try {
    const records = scanBody(text, false);
    if (records === undefined) return undefined;
    return issueOf(records) ?? issueOf(scanBody(text, true));
  } catch (err) {
    // Not JSON: the validator's own reading tells.
    if (err instanceof NotJson) return undefined;
    throw err;
  }
}

/**
 * The counts of an inline load's `scenario`, with its items' rows or without; undefined when the
 * body's schema would tell another issue first (it is not an object, or its `name` is not a
 * string). Throws `NotJson`.
 */
function scanBody(text: string, rows: boolean): ScenarioCounts | undefined {
  const scan = new JsonScan(text);
  if (scan.peek() !== 'object') return undefined;
  let nameOk = true;
  let counts: ScenarioCounts | undefined;
  if (scan.open(OPEN_BRACE))
    do {
      const key = scan.key();
      if (key === 'name') nameOk = scan.value() === 'string';
      else if (key === 'scenario') counts = scanScenario(scan, rows);
      else scan.value();
    } while (scan.next(CLOSE_BRACE));
  scan.end();
  return nameOk ? counts : undefined;
}
