/** A webhook endpoint as the store keeps it. */
export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  deletedAt: string | null;
  /** Virtual instant it was disabled (every delivery failing for 5 virtual days); null if enabled. */
  disabledAt: string | null;
  /** Receiver chaos (docs/runtime.md "Receiver chaos"): each kind's probability; null for none. */
  chaos: WebhookChaos | null;
}

/** The probability (0 to 1) of each kind of receiver chaos, drawn per delivery from the seed. */
export interface WebhookChaos {
  duplicate: number;
  out_of_order: number;
  stale_timestamp: number;
  bad_signature: number;
  unknown_type: number;
}
