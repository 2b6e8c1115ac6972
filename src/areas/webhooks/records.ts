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
}
