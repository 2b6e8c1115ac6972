import type { Event, EventType, TwinSnapshot } from '../contract/events.js';
import { shownState, toEvaluation } from './evaluation-view.js';
import type { EvaluationRecord, EvaluationState, TwinRecord } from './records.js';

/**
 * What a resource looked like at an event's instant. An evaluation is kept as the fields
 * `toEvaluation` reads, not as a rendered body: its `links` and download URL name the host of
 * the request that reads the event, exactly as `GET /v1/evaluations/{id}` would.
 */
export type EventSnapshot =
  | {
      kind: 'evaluation';
      evaluation: Pick<EvaluationRecord, 'id' | 'createdAt' | 'request'> & {
        state: EvaluationState;
      };
    }
  | { kind: 'twin'; twin: TwinSnapshot };

/** An evaluation as the API shows it in `state` (the schedule and the plan stay internal). */
export function evaluationSnapshot(
  record: EvaluationRecord,
  state: EvaluationState,
): EventSnapshot {
  return {
    kind: 'evaluation',
    evaluation: {
      id: record.id,
      createdAt: record.createdAt,
      request: record.request,
      state: shownState(state),
    },
  };
}

/** A twin as it stands. */
export function twinSnapshot(twin: TwinRecord): EventSnapshot {
  return {
    kind: 'twin',
    twin: {
      id: twin.id,
      object: 'twin',
      status: twin.status,
      file_count: twin.run?.fileCount ?? 0,
      created_at: twin.createdAt,
    },
  };
}

/** One row of the event log (DESIGN.md sections 3 and 4). */
export interface EventRecord {
  id: string;
  accountId: string;
  type: EventType;
  resourceId: string;
  previousStatus: string | null;
  snapshot: EventSnapshot;
  createdAt: string;
}

/**
 * The Event body: the resource as the API showed it at `created_at`, the status it left, and
 * the evaluation's `webhook_metadata` (section 2.2: "attached for webhook deliveries").
 * @example toEvent(store.events.get(accountId, id)!, baseUrl(c))
 */
export function toEvent(e: EventRecord, baseUrl: string): Event {
  const { snapshot } = e;
  return {
    id: e.id,
    object: 'event',
    type: e.type,
    created_at: e.createdAt,
    data: {
      object:
        snapshot.kind === 'evaluation' ? toEvaluation(snapshot.evaluation, baseUrl) : snapshot.twin,
      previous_status: e.previousStatus,
    },
    webhook_metadata:
      snapshot.kind === 'evaluation' ? snapshot.evaluation.request.webhook_metadata : null,
  };
}
