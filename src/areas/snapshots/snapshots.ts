/**
 * World snapshots (DESIGN.md section 8): the whole world, or one account, saved as it stands and
 * put back exactly, so the same later requests give the same bytes as after the save. The tables
 * are copied by the store; this module keeps what lives beside them (clocks, id and fault
 * streams, fault rules, the journal, rate windows) and rebuilds the caches a restore outdates.
 */

import { type ClockMode, parseClockMode, wallNow } from '../../core/clock.js';
import { invalidParam, MESSAGES, notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import type { JournalEntry } from '../requests/journal-entry.js';
import type { ScenarioFile } from '../scenarios/scenario-file.js';
import type { HeldState } from './snapshot-file-contract.js';
import { checkRoomAfter, checkRoomBefore } from './snapshot-limits.js';
import type { SnapshotTables } from './snapshot-tables.js';
import type { SavedSnapshot } from './snapshots-store.js';

/** Waits until no account's settle is in progress, so the tables are at rest. */
export function worldAtRest(deps: Deps): Promise<void> {
  return deps.engine.atRest();
}

/**
 * Saves the world (or, with `account`, that account) as `name`, replacing a snapshot of that
 * name. Call it at rest (`worldAtRest`). `limited`: within `--snapshot-limit` and
 * `--snapshot-space` (a user's save; not the copy a scenario load keeps to roll back to).
 * @example await worldAtRest(deps); saveSnapshot(deps, 'base', null, true)
 */
export function saveSnapshot(
  deps: Deps,
  name: string,
  account: string | null,
  limited = false,
): SavedSnapshot {
  const shelf = deps.store.snapshots;
  const one = account === null ? undefined : deps.store.accounts.get(account);
  if (account !== null && !one) throw notFound('account', account, 'account');
  if (limited) checkRoomBefore(deps, name, account === null);
  const tag = shelf.nextTag();
  const check = limited ? (stored: number) => checkRoomAfter(deps, stored) : undefined;
  const { counts, journal, storedBytes, state } = copyWorld(
    deps,
    shelf.tables,
    tag,
    account,
    check,
  );
  const snapshot: SavedSnapshot = {
    name,
    createdAt: new Date(wallNow()).toISOString(),
    scope: account === null ? 'world' : 'account',
    account,
    seed: deps.config.seed,
    counts: {
      ...counts,
      fault_rules: state.faults?.rules.length ?? 0,
      journal,
    },
    state,
    tag,
    storedBytes,
  };
  shelf.put(snapshot);
  return snapshot;
}

/**
 * Copies the world (or one account) into `tables` under `tag`, with its journal entries, and
 * what else lives beside the tables; `journal` is how many entries it kept. `check` sees the
 * bytes the copy takes, in its transaction (a throw takes the copy back). Call it at rest
 * (`worldAtRest`).
 */
export function copyWorld(
  deps: Deps,
  tables: SnapshotTables,
  tag: string,
  account: string | null,
  check?: (storedBytes: number) => void,
): { counts: Record<string, number>; journal: number; storedBytes: number; state: HeldState } {
  const one = account === null ? undefined : deps.store.accounts.get(account);
  const journal = account === null ? [...deps.journal.entries()] : deps.journal.filter({ account });
  const { counts, storedBytes } = deps.store.tx(() => {
    const before = tables.storedBytes();
    const counts = tables.save(tag, account);
    tables.saveJournal(tag, journal);
    // A running clock is kept at the instant it shows now, to run on from there once restored.
    const accounts = one ? [one] : deps.store.accounts.list();
    for (const a of accounts) {
      const { mode, now } = deps.clocks.reading(a);
      if (mode !== 'manual') tables.pinClock(tag, a.id, now);
    }
    const storedBytes = tables.storedBytes() - before;
    check?.(storedBytes);
    return { counts, storedBytes };
  });
  return { counts, journal: journal.length, storedBytes, state: stateOf(deps, account) };
}

/** What lives outside the tables, as of now, but the journal. */
function stateOf(deps: Deps, account: string | null): HeldState {
  const world = account === null;
  const faults = world ? deps.faults.state() : null;
  return {
    request_ids: world ? [...deps.ids.requestState()] : null,
    faults: faults && { rules: faults.rules, draw: [...faults.draw] },
    system_clock: world ? { mode: deps.systemClock.mode, now: deps.systemClock.now() } : null,
    scenario: world ? structuredClone<ScenarioFile>(deps.scenarios.loaded) : null,
    rate_limits: deps.limiter.windowsOf(account ?? undefined),
    archives_owed: deps.engine.archivesOwedState(account),
  };
}

/** The named snapshot, or 404 naming it. */
export function snapshotNamed(deps: Deps, name: string): SavedSnapshot {
  const found = deps.store.snapshots.get(name);
  if (!found) throw notFound('snapshot', name, 'name');
  return found;
}

/**
 * Puts a snapshot back: the whole world, or its account alone (the others untouched). Call it at
 * rest (`worldAtRest`); nothing of it is half-applied.
 * @example await worldAtRest(deps); restoreSnapshot(deps, snapshotNamed(deps, 'base'))
 */
export function restoreSnapshot(
  deps: Deps,
  snapshot: SavedSnapshot,
  tables: SnapshotTables = deps.store.snapshots.tables,
): void {
  const { account, state } = snapshot;
  const journal = tables.journal(snapshot.tag);
  deps.webhooks.pause(account ?? undefined);
  try {
    tables.restore(snapshot.tag, account);
  } catch (err) {
    deps.webhooks.resume();
    // Only an account's rows can meet others': an id or secret one of them took since.
    if (account !== null && /constraint/i.test((err as Error).message))
      throw invalidParam('name', MESSAGES.snapshotClash(account));
    throw err;
  }
  // Built archives are rebuilt byte for byte when read; the cache may hold other runs' now.
  deps.store.archives.clear();
  if (account === null) restoreWorldState(deps, state, journal);
  else restoreAccountState(deps, account, state, journal);
  deps.engine.restoreArchivesOwed(account, state.archives_owed);
  deps.webhooks.resume();
}

/**
 * The scenario a whole world's snapshot holds, as a copy. The state keeps it as plain JSON (its
 * contract sits below the scenario file's types), but it is a scenario file: either the loaded
 * one (`stateOf`) or one checked against the registered kinds when its file was read
 * (snapshot-file.ts). The one place a snapshot's state is taken at its word.
 */
function heldScenario(state: HeldState): ScenarioFile {
  return structuredClone(state.scenario) as ScenarioFile;
}

function restoreWorldState(deps: Deps, state: HeldState, journal: readonly JournalEntry[]): void {
  deps.clocks.clear();
  deps.ids.restoreRequests(state.request_ids!);
  deps.faults.replace(state.faults!);
  const clock = state.system_clock!;
  deps.systemClock.setMode(parseClockMode(clock.mode) as ClockMode);
  deps.systemClock.set(clock.now);
  deps.scenarios.loaded = heldScenario(state);
  deps.journal.replace(journal);
  deps.limiter.restore(state.rate_limits);
}

function restoreAccountState(
  deps: Deps,
  account: string,
  state: HeldState,
  journal: readonly JournalEntry[],
): void {
  deps.clocks.forget(account);
  const others = [...deps.journal.entries()].filter((e) => e.account_id !== account);
  deps.journal.replace([...others, ...journal]);
  deps.limiter.restore(state.rate_limits, account);
}

/** A snapshot as `GET /_control/snapshots` lists it. */
export function snapshotView(s: SavedSnapshot) {
  return {
    name: s.name,
    object: 'snapshot' as const,
    scope: s.scope,
    account: s.account,
    created_at: s.createdAt,
    counts: s.counts,
    stored_bytes: s.storedBytes,
    bytes: s.bytes ?? null,
  };
}
