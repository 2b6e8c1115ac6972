/**
 * The deliveries an event makes to its endpoints (docs/runtime.md "Receiver chaos"): the real
 * one, due `firstDelay` after the event as always (later when it is held back), and beside it
 * the extra ones its endpoint's chaos draws: forged, stale and unknown-type ones due with it, and
 * a duplicate that waits until the real one is accepted.
 */
import { drawChaos, OUT_OF_ORDER_HOLD_MS } from './chaos.js';
import type { PlannedDelivery, StagedDelivery } from './deliveries-store.js';

/** The extras due with the real delivery, in the order they are made after it. */
const WITH_IT = ['bad_signature', 'stale_timestamp', 'unknown_type'] as const;

/**
 * The rows to record for `staged`, in order. An event drawn `out_of_order` is held back unless
 * the endpoint's previous real delivery is (two held events would only keep their order);
 * `lastRealHeld` answers that for deliveries recorded before this batch.
 * @example planDeliveries(staged, '0', 0, (id) => repo.lastRealHeld(id))
 */
export function planDeliveries(
  staged: readonly StagedDelivery[],
  seed: string,
  firstDelay: number,
  lastRealHeld: (endpointId: string) => boolean,
): PlannedDelivery[] {
  const held = new Map<string, boolean>();
  const planned: PlannedDelivery[] = [];
  for (const s of staged) {
    const due = Date.parse(s.event.createdAt) + firstDelay;
    const chaos = s.endpoint.chaos;
    if (!chaos) {
      planned.push({ ...s, nextAt: due, chaos: null });
      held.set(s.endpoint.id, false);
      continue;
    }
    const drawn = drawChaos(seed, s.endpoint.id, s.event.id, chaos);
    const previousHeld = held.get(s.endpoint.id) ?? lastRealHeld(s.endpoint.id);
    const hold = drawn.has('out_of_order') && !previousHeld;
    held.set(s.endpoint.id, hold);
    planned.push({
      ...s,
      nextAt: hold ? due + OUT_OF_ORDER_HOLD_MS : due,
      chaos: hold ? 'out_of_order' : null,
    });
    for (const kind of WITH_IT)
      if (drawn.has(kind)) planned.push({ ...s, nextAt: due, chaos: kind });
    if (drawn.has('duplicate')) planned.push({ ...s, nextAt: null, chaos: 'duplicate' });
  }
  return planned;
}
