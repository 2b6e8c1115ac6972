import type * as T from './control-types.js';
import { boundSeeders } from './kind-seeders.js';

export type NewAccountOptions = T.AccountInput;

/** The control calls a test account is made of (the control client has them all). */
export interface AccountControl extends T.KindSeeders<[accountId: string]> {
  createAccount(body: T.AccountInput): Promise<T.CreatedAccount>;
  getClock(accountId: string): Promise<T.Clock>;
  advanceClock(
    accountId: string,
    body: { seconds: number } | { to: string },
  ): Promise<T.AdvancedClock>;
  setClock(accountId: string, body: { mode: string }): Promise<T.Clock>;
  createKey(accountId: string, body: T.KeyInput): Promise<T.Key>;
  seedRun(accountId: string, body: T.RunInput): Promise<T.Run>;
  seedWebhookEndpoint(accountId: string, body: T.WebhookEndpointInput): Promise<T.WebhookEndpoint>;
  reset(body: T.ResetInput): Promise<T.ResetResult>;
}

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
  /** Deletes this account's resources (`POST /_control/reset {account}`). */
  reset(): Promise<T.ResetResult>;
}

/** `control.newAccount()`: see `TestAccount`. */
export async function newTestAccount(
  control: AccountControl,
  baseUrl: string,
  opts: NewAccountOptions,
): Promise<TestAccount> {
  const { account, key } = await control.createAccount(opts);
  const id = account.id;
  return {
    account,
    key: { id: key.id, secret: key.secret! },
    headers: { authorization: `Bearer ${key.secret}` },
    apiUrl: `${baseUrl.replace(/\/+$/, '')}/v1`,
    clock: {
      get: () => control.getClock(id),
      advance: (seconds) => control.advanceClock(id, { seconds }),
      advanceTo: (to) => control.advanceClock(id, { to }),
      setMode: (mode) => control.setClock(id, { mode }),
    },
    createKey: (body) => control.createKey(id, body),
    ...boundSeeders(control, id),
    seedRun: (body) => control.seedRun(id, body),
    seedWebhookEndpoint: (body) => control.seedWebhookEndpoint(id, body),
    reset: () => control.reset({ account: id }),
  };
}
