/**
 * The message one attempt sends (docs/runtime.md "Deliveries" and "Receiver chaos"): the event
 * as `GET /v1/events/{event_id}` shows it, its id as `webhook-id`, signed with the endpoint's
 * secret at the attempt's timestamp; or what a delivery's chaos makes of it.
 */
import { makeWebhookSecret } from '../../core/ids.js';
import { STALE_BY_S } from './chaos.js';
import { signWebhook } from './signing.js';

/** What is sent: the three Standard Webhooks headers' values and the body they sign. */
export interface WebhookMessage {
  id: string;
  timestamp: number;
  body: string;
  signature: string;
}

/** The `webhook-id` (and body `id`) of a delivery: the event's, but an unknown type's own. */
export const webhookIdOf = (eventId: string, chaos: string | null): string =>
  chaos === 'unknown_type' ? `${eventId}_unknown` : eventId;

/**
 * A type no receiver knows, of the event's family (`evaluation.succeeded` gives
 * `evaluation.emulator_unknown_type`), so a receiver routing on the prefix still meets it.
 */
export const unknownTypeOf = (type: string): string =>
  `${type.slice(0, type.indexOf('.') + 1) || 'emulator.'}emulator_unknown_type`;

/**
 * The body a delivery carrying `chaos` sends for `event` (the event as the API shows it): the
 * event itself, or for `unknown_type` the same with its own id and an unknown type.
 */
export function bodyOf(event: { id: string; type: string }, chaos: string | null): string {
  if (chaos !== 'unknown_type') return JSON.stringify(event);
  return JSON.stringify({
    ...event,
    id: webhookIdOf(event.id, chaos),
    type: unknownTypeOf(event.type),
  });
}

/**
 * The signed message of an attempt at unix second `timestamp`: `stale_timestamp` signs (correctly)
 * a timestamp 10 minutes older, `bad_signature` signs with another secret than the endpoint's.
 * @example messageOf('0', 'whe_1', event, null, 1767225600)
 */
export function messageOf(
  seed: string,
  endpointId: string,
  event: { id: string; type: string },
  chaos: string | null,
  timestamp: number,
): WebhookMessage {
  const id = webhookIdOf(event.id, chaos);
  const body = bodyOf(event, chaos);
  const stamp = chaos === 'stale_timestamp' ? timestamp - STALE_BY_S : timestamp;
  // A forger does not know the secret: any other key (from the seed, so the bytes repeat).
  const secret =
    chaos === 'bad_signature'
      ? makeWebhookSecret(seed, `${endpointId}/forged`)
      : makeWebhookSecret(seed, endpointId);
  return { id, timestamp: stamp, body, signature: signWebhook(secret, id, stamp, body) };
}
