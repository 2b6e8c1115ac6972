/**
 * The event log (DESIGN.md section 4: "each transition (and each webhook event) is applied once,
 * in time order, when the clock passes it"). Whoever applies a status transition builds its
 * event draft at that moment, from the resource as it stands right after it; `recordEvents`
 * writes drafts in the caller's transaction, so an event exists exactly when its transition
 * was stored.
 */
import type { EventType } from '../contract/events.js';
import type { EventSnapshot } from '../domain/event-view.js';
import type { EvaluationRecord, EvaluationState, TwinRecord } from '../domain/records.js';
import type { Deps } from '../runtime/deps.js';
import { toTimestamp } from './clock.js';
import { eventMatches, type StagedDelivery } from './webhook-deliveries.js';

export interface EventDraft {
  at: number;
  accountId: string;
  type: EventType;
  resourceId: string;
  previousStatus: string | null;
  snapshot: EventSnapshot;
}

/** The state fields an Evaluation body shows; the schedule and the plan stay internal. */
function shownState(state: EvaluationState): EvaluationState {
  return {
    status: state.status,
    phase: state.phase,
    progress: state.progress,
    status_message: state.status_message,
    episodes: state.episodes,
    error: state.error,
    result: state.result,
    download: state.download,
    tokens: state.tokens,
    service_version: state.service_version,
    started_at: state.started_at,
    completed_at: state.completed_at,
    ...(state.download_token === undefined ? {} : { download_token: state.download_token }),
  };
}

/**
 * The event of an evaluation entering `state.status` at `at`; `state` is the run as the API
 * shows it at that instant (the type follows it, so type and body always agree).
 */
export function evaluationEvent(
  record: EvaluationRecord,
  at: number,
  previousStatus: string | null,
  state: EvaluationState,
): EventDraft {
  return {
    at,
    accountId: record.accountId,
    type: `evaluation.${state.status}` as EventType,
    resourceId: record.id,
    previousStatus,
    snapshot: {
      kind: 'evaluation',
      evaluation: {
        id: record.id,
        createdAt: record.createdAt,
        request: record.request,
        state: shownState(state),
      },
    },
  };
}

/** The event of a twin entering its current status at `at`. */
export function twinEvent(twin: TwinRecord, at: number, previousStatus: string): EventDraft {
  return {
    at,
    accountId: twin.accountId,
    type: `twin.${twin.status}` as EventType,
    resourceId: twin.id,
    previousStatus,
    snapshot: {
      kind: 'twin',
      twin: {
        id: twin.id,
        object: 'twin',
        status: twin.status,
        file_count: twin.run?.fileCount ?? 0,
        created_at: twin.createdAt,
      },
    },
  };
}

/**
 * Writes the drafts in the order given (callers pass them in time order), each with an id from
 * the account's `evt` stream at its instant. Call inside the transaction that applied them.
 * @example store.tx(() => { ...; recordEvents(deps, [evaluationEvent(record, now, null, record.state)]) })
 */
export function recordEvents(deps: Deps, drafts: readonly EventDraft[]): void {
  const { store, webhooks } = deps;
  // Who each event goes to is decided here, in the transaction, from the endpoints live now;
  // the deliveries are enqueued only once it commits (a rollback drops them with the events).
  const endpoints = new Map<string, { id: string; url: string; events: string[] }[]>();
  const staged: StagedDelivery[] = [];
  for (const d of drafts) {
    const event = {
      id: deps.ids.next('evt', d.accountId, d.at),
      accountId: d.accountId,
      type: d.type,
      resourceId: d.resourceId,
      previousStatus: d.previousStatus,
      snapshot: d.snapshot,
      createdAt: toTimestamp(d.at),
    };
    store.events.insert(event);
    if (!webhooks.enabled) continue;
    let targets = endpoints.get(d.accountId);
    if (!targets) {
      targets = store.webhookEndpoints.liveOfAccount(d.accountId);
      endpoints.set(d.accountId, targets);
    }
    for (const endpoint of targets)
      if (eventMatches(endpoint.events, d.type)) staged.push({ event, endpoint });
  }
  if (staged.length > 0) store.onCommit(() => webhooks.enqueue(staged));
}
