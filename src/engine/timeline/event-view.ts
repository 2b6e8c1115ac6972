import type { RunRecord, RunState } from '../records.js';
import type { RunKind } from '../run-kind.js';
import { shownState, toRunBody } from './view.js';

/** An event as the API shows it. */
export interface Event {
  id: string;
  object: 'event';
  type: string;
  created_at: string;
  data: { object: Record<string, unknown>; previous_status: string | null };
  webhook_metadata: Record<string, unknown> | null;
}

/** A run as it stood at an event: the fields its body reads, not a rendered body. */
type RunSnapshot = Pick<RunRecord, 'id' | 'createdAt' | 'request'> & { state: RunState };

/**
 * What a resource looked like at an event: a run as the fields its body reads, so its `links` name
 * the host of the request reading the event, as a `GET` of the run would.
 */
export type EventSnapshot =
  | { kind: 'run'; runKind: string; run: RunSnapshot }
  /** Any other resource (an endpoint), or a fired event's own body: shown as stored. */
  | { kind: 'object'; object: ShownObject; webhookMetadata: Record<string, unknown> | null };

/** A resource body as the API shows it: every one has an id and an `object` naming its type. */
export type ShownObject = { id: string; object: string } & Record<string, unknown>;

/** A run as the API shows it in `state` (the schedule and the plan stay internal). */
export function runSnapshot(record: RunRecord, state: RunState): EventSnapshot {
  return {
    kind: 'run',
    runKind: record.kind,
    run: {
      id: record.id,
      createdAt: record.createdAt,
      request: record.request,
      state: shownState(state),
    },
  };
}

/** The resource id, kind name and status an event's snapshot shows. */
export function snapshotSubject(snapshot: EventSnapshot): {
  id: string;
  kind: string;
  status: string;
} {
  if (snapshot.kind === 'object') {
    const { id, object, status } = snapshot.object;
    return { id, kind: object, status: String(status) };
  }
  return { id: snapshot.run.id, kind: snapshot.runKind, status: snapshot.run.state.status };
}

/** One row of the event log (DESIGN.md sections 3 and 4). */
export interface EventRecord {
  id: string;
  accountId: string;
  type: string;
  resourceId: string;
  previousStatus: string | null;
  snapshot: EventSnapshot;
  createdAt: string;
}

/**
 * The Event body: the resource as the API showed it at `created_at`, the status it left, and
 * the run's `webhook_metadata` (section 2.2: "attached for webhook deliveries").
 * @example toEvent(store.events.get(accountId, id)!, baseUrl(c), deps.kinds.byName)
 */
export function toEvent(
  e: EventRecord,
  baseUrl: string,
  kinds: Readonly<Record<string, RunKind>>,
): Event {
  if (e.snapshot.kind === 'object') {
    const { object, webhookMetadata } = e.snapshot;
    const data = { object, previous_status: e.previousStatus };
    return {
      id: e.id,
      object: 'event',
      type: e.type,
      created_at: e.createdAt,
      data,
      webhook_metadata: webhookMetadata,
    } as Event;
  }
  const { runKind, run: shown } = e.snapshot;
  const run = { ...shown, request: boundedRequest(shown.request) };
  const kind = kinds[runKind];
  return {
    id: e.id,
    object: 'event',
    type: e.type,
    created_at: e.createdAt,
    data: {
      // A kind this emulator does not know (a newer one's --db file): what every body has.
      object: kind
        ? toRunBody(kind, run, baseUrl)
        : { id: run.id, object: runKind, status: run.state.status },
      previous_status: e.previousStatus,
    },
    webhook_metadata: run.request.webhook_metadata,
  } as Event;
}

/** A request's JSON past which events show it with long strings cut (docs/api.md, "Events"). */
export const EVENT_REQUEST_CHARS = 16 * 1024;
/** How much of a long string, and how many items of a long array or object, it keeps. */
const KEPT_CHARS = 1024;
const KEPT_ITEMS = 100;

/**
 * The run's request as events show it (inferred): as stored, unless its JSON passes
 * `EVENT_REQUEST_CHARS`; then every string over `KEPT_CHARS` is cut and marked, and arrays and
 * objects keep their first `KEPT_ITEMS` entries, so a page of events about runs with large specs
 * stays small. `GET` of the run shows it whole.
 */
export function boundedRequest<T>(request: T): T {
  if (JSON.stringify(request).length <= EVENT_REQUEST_CHARS) return request;
  const cut = (value: unknown): unknown => {
    if (typeof value === 'string' && value.length > KEPT_CHARS)
      return `${value.slice(0, KEPT_CHARS)}...[truncated ${value.length - KEPT_CHARS} chars]`;
    if (Array.isArray(value)) return value.slice(0, KEPT_ITEMS).map(cut);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value)
          .slice(0, KEPT_ITEMS)
          .map(([k, v]) => [k, cut(v)]),
      );
    return value;
  };
  return cut(request) as T;
}
