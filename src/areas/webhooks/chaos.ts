/**
 * Receiver chaos (inferred; docs/runtime.md "Receiver chaos"): what the real platform may do to
 * a receiver, on demand. Each kind has a probability per endpoint; whether a delivery gets it is
 * drawn from the seed, the endpoint and the event alone (a stream of its own per pair), so the
 * same seed and requests give the same chaos, whatever else is drawn and in whatever order.
 */
import { createPrng } from '../../core/prng.js';
import type { WebhookChaos } from './records.js';

/** Every kind, in the order they are drawn (and listed). */
export const CHAOS_KINDS = [
  'duplicate',
  'out_of_order',
  'stale_timestamp',
  'bad_signature',
  'unknown_type',
] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

/**
 * The kinds that are deliveries of their own beside the event's real one: each is made once (a
 * redelivery makes it once more), judged by its answer, never retried, and never counted as a
 * failure of the endpoint. `out_of_order` only delays the real delivery.
 */
export const EXTRA_KINDS = [
  'bad_signature',
  'stale_timestamp',
  'unknown_type',
  'duplicate',
] as const;

/** Whether a delivery carrying `chaos` is one of the extra, judged ones. */
export const isExtra = (chaos: string | null): boolean =>
  chaos !== null && (EXTRA_KINDS as readonly string[]).includes(chaos);

/** The answer a careful receiver gives a delivery carrying `chaos`: forged and stale refused. */
export const expectedAnswer = (chaos: string | null): '2xx' | '4xx' =>
  chaos === 'bad_signature' || chaos === 'stale_timestamp' ? '4xx' : '2xx';

/** How long (virtual) an event is held back at most when no later one overtakes it. */
export const OUT_OF_ORDER_HOLD_MS = 60_000;

/** How far a stale delivery's `webhook-timestamp` lies in the past: twice the 5-minute tolerance. */
export const STALE_BY_S = 600;

/** What an endpoint's `chaos` takes per kind: a probability, or `true` (every delivery). */
export type ChaosInput = Partial<Record<ChaosKind, number | boolean>>;

/**
 * The stored form of a `chaos` input: every kind a probability (`true` is 1, `false` 0), or null
 * when none can happen.
 * @example normalizeChaos({ duplicate: true }) // { duplicate: 1, out_of_order: 0, ... }
 */
export function normalizeChaos(input: ChaosInput | null | undefined): WebhookChaos | null {
  if (!input) return null;
  const value = (v: number | boolean | undefined) =>
    v === true ? 1 : typeof v === 'number' ? v : 0;
  const chaos: WebhookChaos = {
    duplicate: value(input.duplicate),
    out_of_order: value(input.out_of_order),
    stale_timestamp: value(input.stale_timestamp),
    bad_signature: value(input.bad_signature),
    unknown_type: value(input.unknown_type),
  };
  return CHAOS_KINDS.some((k) => chaos[k] > 0) ? chaos : null;
}

/**
 * The kinds drawn for the delivery of `eventId` to `endpointId`: one draw per kind, in
 * CHAOS_KINDS order, each happening when it falls below the kind's probability.
 * @example drawChaos('0', 'whe_1', 'evt_1', chaos) // Set { 'duplicate' }
 */
export function drawChaos(
  seed: string,
  endpointId: string,
  eventId: string,
  chaos: WebhookChaos,
): Set<ChaosKind> {
  const draw = createPrng(seed, `webhook-chaos/${endpointId}/${eventId}`);
  return new Set(CHAOS_KINDS.filter((kind) => draw() < chaos[kind]));
}
