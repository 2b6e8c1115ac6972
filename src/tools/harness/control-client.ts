import type * as T from './control-types.js';
import { boundSeeders, kindSeeders } from './kind-seeders.js';
import { labMethods } from './lab-methods.js';
import { listMethods } from './list-methods.js';
import type { NewAccountOptions, TestAccount } from './test-account.js';

/** A filter as a query string: its fields that are set, or nothing. */
function journalQuery(filter: T.RequestFilter | T.WebhookDeliveryFilter): string {
  const query = new URLSearchParams(
    Object.entries(filter).flatMap(([k, v]): [string, string][] =>
      v === undefined ? [] : [[k, String(v)]],
    ),
  ).toString();
  return query ? `?${query}` : '';
}

/** A control API call that did not answer 2xx; `error` is the standard error envelope's body. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; code: string; message: string; param: string | null } | null,
    method: string,
    path: string,
  ) {
    super(`${method} /_control${path} answered ${status}: ${error?.message ?? 'no error body'}`);
    this.name = 'ControlError';
  }
}

export interface ControlClientOptions {
  /** The emulator's `--control-token`, sent as `X-Control-Token`. */
  token?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

const path = (value: string) => encodeURIComponent(value);

/** One control call: throws `ControlError` unless the route answers 2xx. */
type Call = <R>(method: string, route: string, body?: unknown) => Promise<R>;

/** Calls the control API at `baseUrl` with the client's token and fetch. */
function controlCall(baseUrl: string, options: ControlClientOptions): Call {
  const root = `${baseUrl.replace(/\/+$/, '')}/_control`;
  const doFetch = options.fetch ?? fetch;
  return async <R>(method: string, route: string, body?: unknown): Promise<R> => {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers['x-control-token'] = options.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(`${root}${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // A Markdown answer (a report asked for as Markdown) is the text itself.
    const isJson = !res.headers.get('content-type')?.startsWith('text/markdown');
    const json = text && isJson ? JSON.parse(text) : text || undefined;
    if (!res.ok) throw new ControlError(res.status, json?.error ?? null, method, route);
    return json as R;
  };
}

/** The world's routes: health, reset, scenarios, accounts, keys and clocks. */
/**
 * Replay bundles (docs/bundles.md): mark where the recording starts, see how far it got, and
 * save the bundle to a file, e.g. when a suite failed, for `svc-emulator replay FILE`.
 */
function bundleMethods(call: Call, baseUrl: string, options: ControlClientOptions) {
  return {
    /** `POST /_control/bundle/mark`: record from here (the world copied as it stands). */
    markBundle: () => call<T.BundleMark>('POST', '/bundle/mark'),
    /** `GET /_control/bundle/mark`: the mark, and the calls recorded since. */
    bundleMark: () => call<T.BundleMark>('GET', '/bundle/mark'),
    /**
     * `GET /_control/bundle` written to `file` (the whole world, or `{account}`); answers the
     * file's path. Past `--bundle-limit` it throws the 409 that says how to narrow it.
     */
    saveBundle: async (file: string, opts: { account?: string } = {}) => {
      const query = opts.account ? `?account=${path(opts.account)}` : '';
      const headers: Record<string, string> = {};
      if (options.token !== undefined) headers['x-control-token'] = options.token;
      const route = `/bundle${query}`;
      const res = await (options.fetch ?? fetch)(
        `${baseUrl.replace(/\/+$/, '')}/_control${route}`,
        { headers },
      );
      if (!res.ok) {
        const text = await res.text();
        const error = text.startsWith('{') ? JSON.parse(text).error : null;
        throw new ControlError(res.status, error ?? null, 'GET', route);
      }
      const { writeFile } = await import('node:fs/promises');
      await writeFile(file, new Uint8Array(await res.arrayBuffer()));
      return file;
    },
  };
}

function worldMethods(call: Call) {
  return {
    /** `GET /_control/health`. */
    health: () => call<T.Health>('GET', '/health'),
    /** `POST /_control/reset`: everything, or one account, back to the loaded (or named) scenario. */
    reset: (body: T.ResetInput = {}) => call<T.ResetResult>('POST', '/reset', body),
    listScenarios: () => call<T.ScenarioList>('GET', '/scenarios'),
    /** `POST /_control/scenarios/load`: `{name}` of a file in `scenarios/` or an inline `{scenario}`. */
    loadScenario: (body: T.LoadScenarioInput) =>
      call<T.LoadScenarioResult>('POST', '/scenarios/load', body),
    /** `POST /_control/accounts`: the account and a full-scope key with its secret. */
    createAccount: (body: T.AccountInput = {}) => call<T.CreatedAccount>('POST', '/accounts', body),
    getAccount: (accountId: string) => call<T.Account>('GET', `/accounts/${path(accountId)}`),
    /** The answer is the only time the key's secret is shown. */
    createKey: (accountId: string, body: T.KeyInput) =>
      call<T.Key>('POST', `/accounts/${path(accountId)}/keys`, body),
    revokeKey: (keyId: string) => call<T.Key>('POST', `/keys/${path(keyId)}/revoke`),
    getClock: (accountId: string) => call<T.Clock>('GET', `/accounts/${path(accountId)}/clock`),
    /** Set the mode (`manual`, `realtime`, `scaled:N`) or move `now` forward. */
    setClock: (accountId: string, body: T.SetClockInput) =>
      call<T.Clock>('PUT', `/accounts/${path(accountId)}/clock`, body),
    /** Answers the new `now` and the transitions applied, in order. */
    advanceClock: (accountId: string, body: T.AdvanceClockInput) =>
      call<T.AdvancedClock>('POST', `/accounts/${path(accountId)}/clock/advance`, body),
  };
}

/** The snapshot routes: save the world (or an account) by name, restore it, as a file. */
function snapshotMethods(call: Call) {
  return {
    /** `POST /_control/snapshots`: the whole world now, or one account with `{account}`. */
    snapshot: (name: string, opts: T.SnapshotOptions = {}) =>
      call<T.Snapshot>('POST', '/snapshots', { name, ...opts }),
    /** `POST /_control/snapshots/{name}/restore`: the world (or the account) back as saved. */
    restore: (name: string) => call<T.Snapshot>('POST', `/snapshots/${path(name)}/restore`),
    listSnapshots: () => call<T.SnapshotList>('GET', '/snapshots'),
    deleteSnapshot: (name: string) =>
      call<{ name: string; deleted: true }>('DELETE', `/snapshots/${path(name)}`),
    /** `GET /_control/snapshots/{name}/download`: the file, for `--snapshot` or `loadSnapshot`. */
    downloadSnapshot: (name: string) =>
      call<T.SnapshotFile>('GET', `/snapshots/${path(name)}/download`),
    /** `POST /_control/snapshots` with `{name, snapshot}`: a downloaded file back (up to 1 MiB). */
    loadSnapshot: (name: string, snapshot: T.SnapshotFile) =>
      call<T.Snapshot>('POST', '/snapshots', { name, snapshot }),
  };
}

/** The seeding routes: runs, webhook endpoints, user assets, and each kind's own. */
function seedMethods(call: Call) {
  return {
    /** A run of any kind (`{kind, ...}`), on the clock or in a given state. */
    seedRun: (accountId: string, body: T.RunInput) =>
      call<T.Run>('POST', `/accounts/${path(accountId)}/runs`, body),
    seedWebhookEndpoint: (accountId: string, body: T.WebhookEndpointInput) =>
      call<T.WebhookEndpoint>('POST', `/accounts/${path(accountId)}/webhook_endpoints`, body),
    seedEnvironment: (accountId: string, body: T.UserAssetInput) =>
      call<T.UserAsset>('POST', `/accounts/${path(accountId)}/environments`, body),
    seedObject: (accountId: string, body: T.UserAssetInput) =>
      call<T.UserAsset>('POST', `/accounts/${path(accountId)}/objects`, body),
    /** `seedEvaluation`, `seedTwin`, ...: each kind that seeds in its own terms. */
    ...kindSeeders((collection, accountId, body) =>
      call('POST', `/accounts/${path(accountId)}/${collection}`, body ?? {}),
    ),
  };
}

/** What the emulator saw and does: its document, faults, journal, deliveries and coverage. */
function inspectMethods(call: Call) {
  return {
    /** `GET /_control/openapi.json`: the control API's OpenAPI 3.1 document. */
    openapi: () => call<Record<string, unknown>>('GET', '/openapi.json'),

    /** `POST /_control/faults`: a rule that makes matching product requests fail or stall. */
    createFault: (body: T.FaultInput) => call<T.FaultRule>('POST', '/faults', body),
    listFaults: () => call<T.List<T.FaultRule>>('GET', '/faults'),
    /** `DELETE /_control/faults`: every rule. */
    clearFaults: () => call<T.Deleted>('DELETE', '/faults'),
    deleteFault: (id: string) =>
      call<{ id: string; deleted: true }>('DELETE', `/faults/${path(id)}`),
    /** `GET /_control/requests`: the request journal, oldest first, filtered. */
    listRequests: (filter: T.RequestFilter = {}) =>
      call<T.JournalList>('GET', `/requests${journalQuery(filter)}`),
    /** `DELETE /_control/requests`: every entry, or those matching the filter. */
    clearRequests: (filter: Omit<T.RequestFilter, 'limit' | 'order' | 'after'> = {}) =>
      call<T.Deleted>('DELETE', `/requests${journalQuery(filter)}`),
    /** `GET /_control/webhook_deliveries`: a page of deliveries, oldest first, with their attempts; `after: next_cursor` for the next. */
    listWebhookDeliveries: (filter: T.WebhookDeliveryFilter = {}) =>
      call<T.WebhookDeliveryList>('GET', `/webhook_deliveries${journalQuery(filter)}`),
    getWebhookDelivery: (id: string) =>
      call<T.WebhookDeliveryDetail>('GET', `/webhook_deliveries/${path(id)}`),
    /** `POST .../redeliver`: a delivered or failed delivery sent again now, a new attempt series. */
    redeliver: (deliveryId: string) =>
      call<T.WebhookDelivery>('POST', `/webhook_deliveries/${path(deliveryId)}/redeliver`),
    /** `POST /_control/accounts/{id}/events`: an event of any type, recorded and delivered. */
    triggerEvent: (accountId: string, body: T.FireEventInput) =>
      call<T.Event>('POST', `/accounts/${path(accountId)}/events`, body),
    /** `POST .../enable`: a disabled webhook endpoint takes deliveries again. */
    enableWebhookEndpoint: (endpointId: string) =>
      call<T.EnabledWebhookEndpoint>('POST', `/webhook_endpoints/${path(endpointId)}/enable`),
    /** `PUT .../webhook_chaos`: receiver chaos for the account's endpoints (all, or `endpoints`). */
    setWebhookChaos: (accountId: string, body: T.SetWebhookChaosInput) =>
      call<T.WebhookChaosResult>('PUT', `/accounts/${path(accountId)}/webhook_chaos`, body),
    /** `GET .../receiver_report`: the endpoint's receiver judged by its answers, rule by rule. */
    receiverReport: (endpointId: string) =>
      call<T.ReceiverReport>('GET', `/webhook_endpoints/${path(endpointId)}/receiver_report`),
    /**
     * `GET /_control/coverage`: per product operation, each outcome it can answer and how often
     * the calls so far (of one account, or all) got it.
     */
    coverage: (filter: { account?: string } = {}) =>
      call<T.Coverage>('GET', `/coverage${journalQuery(filter)}`),
  };
}

/**
 * A typed client of every control route (DESIGN.md section 5; docs/control-api.md) of the
 * emulator at `baseUrl`: in-process (`startEmulator`) or a container. Every method throws
 * `ControlError` unless the route answers 2xx.
 * @example
 * const control = createControlClient('http://127.0.0.1:8710');
 * const { key, clock } = await control.newAccount();
 * await clock.advance(5);
 */
export function createControlClient(baseUrl: string, options: ControlClientOptions = {}) {
  const call = controlCall(baseUrl, options);
  const methods = {
    ...worldMethods(call),
    ...snapshotMethods(call),
    ...bundleMethods(call, baseUrl, options),
    ...seedMethods(call),
    ...inspectMethods(call),
    ...listMethods(call),
    ...labMethods(call),
  };
  return {
    ...methods,
    /**
     * A fresh account of its own (own clock, own ids) with a full-scope key, and helpers bound to
     * it: one per test keeps parallel tests apart.
     */
    newAccount: (opts: NewAccountOptions = {}) => newTestAccount(methods, baseUrl, opts),
  };
}

/** `control.newAccount()`: see `TestAccount`. */
async function newTestAccount(
  control: ReturnType<typeof worldMethods> &
    ReturnType<typeof snapshotMethods> &
    ReturnType<typeof seedMethods> &
    ReturnType<typeof inspectMethods> &
    ReturnType<typeof labMethods>,
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
    triggerEvent: (type, more = {}) => control.triggerEvent(id, { type, ...more }),
    setWebhookChaos: (chaos, endpoints) =>
      control.setWebhookChaos(id, endpoints ? { chaos, endpoints } : { chaos }),
    clientReport: (key) => control.clientReport({ account: id, ...(key ? { key } : {}) }),
    reset: () => control.reset({ account: id }),
    snapshot: (name) => control.snapshot(name, { account: id }),
    restore: (name) => control.restore(name),
  };
}

export type ControlClient = ReturnType<typeof createControlClient>;
