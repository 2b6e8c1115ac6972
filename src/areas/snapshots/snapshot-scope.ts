/**
 * Whose rows a snapshot file holds (issue 36). An account's snapshot holds that account's rows
 * only, and every row of any snapshot names what it belongs to inside the file: a key of the
 * file's account, a log of one of its runs, a delivery of one of its endpoints and events, an
 * event about one of its runs. A file edited and sealed again with a new `sha256` (a plain
 * checksum) could otherwise restore a key of another account, which then reads that account's
 * runs, though an account's restore "leaves every other account as it is".
 */

import { MESSAGES } from '../../core/errors.js';
import type { SnapshotFile } from './snapshot-file-contract.js';

/** A value at fault: where, and why. */
export interface ScopeIssue {
  table: string;
  row: number;
  column: string;
  message: string;
}

type Tables = SnapshotFile['world']['tables'];

/** The cells of one column of a table, by row; none if the table is absent. */
function cells(tables: Tables, table: string, column: string): unknown[] {
  const t = tables[table];
  const i = t?.columns.indexOf(column) ?? -1;
  return t && i >= 0 ? t.rows.map((row) => row[i]) : [];
}

/** Each id of a table mapped to the account that owns it. */
function owners(tables: Tables, table: string): Map<unknown, unknown> {
  const owner = cells(tables, table, 'account_id');
  return new Map(cells(tables, table, 'id').map((id, row) => [id, owner[row]]));
}

/** Whether an event's stored snapshot shows an object of its own (nothing read from a run). */
const showsObject = (snapshot: unknown) =>
  typeof snapshot === 'string' && Object.hasOwn(JSON.parse(snapshot) as object, 'object');

/**
 * The first row that reaches outside the file's scope, or undefined. Call it once the columns
 * are known to be readable (store/snapshot-columns.ts).
 * @example firstOutOfScope(file)
 */
export function firstOutOfScope(file: SnapshotFile): ScopeIssue | undefined {
  const { tables } = file.world;
  const account = file.scope === 'account' ? file.account : null;
  const accounts = new Set(cells(tables, 'accounts', 'id'));
  const runs = owners(tables, 'runs');
  const endpoints = owners(tables, 'webhook_endpoints');
  const events = owners(tables, 'events');
  if (account !== null && !accounts.has(account))
    return { table: 'accounts', row: 0, column: 'id', message: MESSAGES.notInFile(account, 'row') };
  for (const [table, { columns, rows }] of Object.entries(tables)) {
    const at = (name: string) => columns.indexOf(name);
    for (const [row, cell] of rows.entries()) {
      const value = (name: string) => cell[at(name)];
      const issue = (column: string, message: string) => ({ table, row, column, message });
      if (table === 'accounts' && account !== null && value('id') !== account)
        return issue('id', MESSAGES.otherAccount(value('id'), account));
      const owner = at('account_id') >= 0 ? value('account_id') : undefined;
      if (owner !== undefined && account !== null && owner !== account)
        return issue('account_id', MESSAGES.otherAccount(owner, account));
      if (owner !== undefined && !accounts.has(owner))
        return issue('account_id', MESSAGES.notInFile(owner, 'account'));
      if (at('run_id') >= 0 && !runs.has(value('run_id')))
        return issue('run_id', MESSAGES.notInFile(value('run_id'), 'run'));
      if (
        table === 'sequences' &&
        account !== null &&
        !String(value('stream')).startsWith(`${account}/`)
      )
        return issue('stream', MESSAGES.otherAccount(value('stream'), account));
      if (table === 'webhook_deliveries') {
        if (endpoints.get(value('endpoint_id')) !== owner)
          return issue(
            'endpoint_id',
            MESSAGES.notInFile(value('endpoint_id'), 'webhook endpoint of its account'),
          );
        if (events.get(value('event_id')) !== owner)
          return issue('event_id', MESSAGES.notInFile(value('event_id'), 'event of its account'));
      }
      if (
        table === 'events' &&
        !showsObject(value('snapshot')) &&
        runs.get(value('resource_id')) !== owner
      )
        return issue('resource_id', MESSAGES.notInFile(value('resource_id'), 'run of its account'));
    }
  }
  return account === null ? worldState(file, runs) : accountState(file, account, runs);
}

/** A whole world's state: the archives it owes are of its own runs. */
function worldState(file: SnapshotFile, runs: Map<unknown, unknown>): ScopeIssue | undefined {
  return owedArchives(file, runs, null);
}

/** An account's state: nothing of the whole emulator, and journal entries, windows and archives of its own. */
function accountState(
  file: SnapshotFile,
  account: string,
  runs: Map<unknown, unknown>,
): ScopeIssue | undefined {
  const { state } = file.world;
  const issue = (table: string, row: number, column: string, message: string) => ({
    table,
    row,
    column,
    message,
  });
  for (const part of ['request_ids', 'faults', 'system_clock', 'scenario'] as const)
    if (state[part] !== null) return issue('state', 0, part, MESSAGES.notOfAnAccount);
  const keys = new Set(cells(file.world.tables, 'api_keys', 'id'));
  for (const [row, entry] of state.journal.entries()) {
    if (entry.account_id !== account)
      return issue(
        'state.journal',
        row,
        'account_id',
        MESSAGES.otherAccount(entry.account_id, account),
      );
    if (entry.key_id !== null && !keys.has(entry.key_id))
      return issue('state.journal', row, 'key_id', MESSAGES.notInFile(entry.key_id, 'key'));
  }
  const windows = Object.keys(state.rate_limits).find((id) => id !== account);
  if (windows !== undefined)
    return issue('state.rate_limits', 0, windows, MESSAGES.otherAccount(windows, account));
  return owedArchives(file, runs, account);
}

/** Archives owed per account: each account's own runs (and, for an account's snapshot, its own). */
function owedArchives(
  file: SnapshotFile,
  runs: Map<unknown, unknown>,
  account: string | null,
): ScopeIssue | undefined {
  for (const [owner, owed] of Object.entries(file.world.state.archives_owed)) {
    const issue = (row: number, message: string) => ({
      table: 'state.archives_owed',
      row,
      column: owner,
      message,
    });
    if (account !== null && owner !== account)
      return issue(0, MESSAGES.otherAccount(owner, account));
    const stray = owed.findIndex((run) => runs.get(run) !== owner);
    if (stray >= 0) return issue(stray, MESSAGES.notInFile(owed[stray], 'run of that account'));
  }
  return undefined;
}
