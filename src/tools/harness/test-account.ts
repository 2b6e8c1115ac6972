import type * as T from './control-types.js';

export type NewAccountOptions = T.AccountInput;

/** An isolated account for one test: its key, its clock, and seeders bound to it. */
export interface TestAccount extends T.KindSeeders<[]> {
  account: T.CreatedAccount['account'];
  /** The full-scope key; `secret` goes in `Authorization: Bearer <secret>`. */
  key: { id: string; secret: string };
  /** `{ authorization: 'Bearer <secret>' }`, to spread into a request's headers. */
  headers: { authorization: string };
  /** The product API's base URL, e.g. `http://127.0.0.1:41234/v1`. */
  apiUrl: string;
  clock: {
    /** The clock's `now` (RFC 3339) and mode. */
    get(): Promise<T.Clock>;
    /** Moves `seconds` forward; answers the transitions applied, in order. */
    advance(seconds: number): Promise<T.AdvancedClock>;
    /** Moves to an instant (RFC 3339), never back. */
    advanceTo(to: string): Promise<T.AdvancedClock>;
    /** `manual`, `realtime` or `scaled:N`. */
    setMode(mode: string): Promise<T.Clock>;
  };
  /** A further key on this account with the given scopes. */
  createKey(body: T.KeyInput): Promise<T.Key>;
  /** A run of any kind (`{kind, ...}`) on this account, on the clock or in a given state. */
  seedRun(body: T.RunInput): Promise<T.Run>;
  seedWebhookEndpoint(body: T.WebhookEndpointInput): Promise<T.WebhookEndpoint>;
  /**
   * Fires an event of `type` on this account (recorded, listed by `GET /v1/events`, delivered),
   * showing `more.resource` or the newest such resource, or `more.data.object` as given.
   */
  triggerEvent(type: string, more?: Omit<T.FireEventInput, 'type'>): Promise<T.Event>;
  /**
   * Receiver chaos for this account's webhook endpoints: every one, or those of `endpoints`
   * (`PUT /_control/accounts/{id}/webhook_chaos`); `{}` turns it off.
   */
  setWebhookChaos(
    chaos: T.SetWebhookChaosInput['chaos'],
    endpoints?: string[],
  ): Promise<T.WebhookChaosResult>;
  /** The client report of this account's calls, or of one of its keys (`GET /_control/client_report`). */
  clientReport(key?: string): Promise<T.ClientReport>;
  /** Deletes this account's resources (`POST /_control/reset {account}`). */
  reset(): Promise<T.ResetResult>;
  /** Saves this account as it stands now under `name` (`POST /_control/snapshots {name, account}`). */
  snapshot(name: string): Promise<T.Snapshot>;
  /** Puts back a snapshot saved with `snapshot(name)`: this account only, the others untouched. */
  restore(name: string): Promise<T.Snapshot>;
}
