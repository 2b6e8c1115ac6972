/** Standard Webhooks signing (inferred; docs/runtime.md "Deliveries"), as receivers verify it. */
import { createHmac } from 'node:crypto';

/** `*`, the exact type, or a prefix wildcard such as `<kind>.*`. */
export function eventMatches(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))),
  );
}

/**
 * `webhook-signature` per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>`, keyed with the base64-decoded secret after `whsec_` (our base62
 * secrets are valid base64).
 * @example signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'evt_1', 1767225600, '{}')
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
