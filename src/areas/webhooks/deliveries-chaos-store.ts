/**
 * The delivery rows' queries that receiver chaos needs (docs/runtime.md "Receiver chaos"): an
 * event held back is let go behind a later one, a duplicate is let go once its event is accepted
 * (or ends with it), and whether the endpoint's last real delivery was held back.
 */
import type { Database } from '../../core/sqlite/sqlite.js';

/** The statements, prepared once per store with the others of the delivery records. */
export function prepareChaosStatements(db: Database) {
  return {
    // The endpoint's newest real delivery (not an extra one): was it held back?
    lastReal: db.prepare<[string], { chaos: string | null }>(
      `SELECT chaos FROM webhook_deliveries WHERE endpoint_id = ?
         AND (chaos IS NULL OR chaos = 'out_of_order') ORDER BY seq DESC LIMIT 1`,
    ),
    releaseHeld: db.prepare(
      `UPDATE webhook_deliveries SET next_at = @at WHERE endpoint_id = @endpoint
         AND status = 'pending' AND chaos = 'out_of_order' AND seq < @seq AND attempts = '[]'
         AND next_at > @at`,
    ),
    releaseDuplicate: db.prepare(
      `UPDATE webhook_deliveries SET next_at = @at WHERE endpoint_id = @endpoint
         AND event_id = @event AND chaos = 'duplicate' AND status = 'pending' AND next_at IS NULL`,
    ),
    dropDuplicate: db.prepare(
      `UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id = @endpoint
         AND event_id = @event AND chaos = 'duplicate' AND status = 'pending' AND next_at IS NULL`,
    ),
  };
}

type ChaosStatements = ReturnType<typeof prepareChaosStatements>;

/** The repository's chaos methods over those statements. */
export function chaosQueries(s: ChaosStatements) {
  return {
    /** Whether the endpoint's newest real delivery is one held back (`out_of_order`). */
    lastRealHeld: (endpointId: string): boolean =>
      s.lastReal.get(endpointId)?.chaos === 'out_of_order',
    /**
     * The endpoint's held-back deliveries older than delivery `seq` that have made no attempt
     * yet become due at virtual ms `at`: right behind the later event that overtook them.
     */
    releaseHeld: (endpointId: string, seq: number, at: number) =>
      void s.releaseHeld.run({ endpoint: endpointId, seq, at }),
    /** The waiting duplicate of the event's delivery to the endpoint becomes due at `at`. */
    releaseDuplicate: (endpointId: string, eventId: string, at: number) =>
      void s.releaseDuplicate.run({ endpoint: endpointId, event: eventId, at }),
    /** Its event was never accepted: the waiting duplicate ends `failed`, unsent; answers how many. */
    dropDuplicate: (endpointId: string, eventId: string): number =>
      s.dropDuplicate.run({ endpoint: endpointId, event: eventId }).changes,
  };
}
