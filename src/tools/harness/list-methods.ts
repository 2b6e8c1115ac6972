/** The harness methods of the routes that list and read what the world holds (the inspector's). */
import type * as T from './control-types.js';

/** One control call: throws `ControlError` unless the route answers 2xx. */
export type Call = <R>(method: string, route: string, body?: unknown) => Promise<R>;

const path = (value: string) => encodeURIComponent(value);

/** `?a=1&b=2` of the fields that are set, or nothing. */
function query(fields: object): string {
  const pairs = Object.entries(fields).flatMap(([k, v]): [string, string][] =>
    v === undefined ? [] : [[k, String(v)]],
  );
  return pairs.length ? `?${new URLSearchParams(pairs)}` : '';
}

export function listMethods(call: Call) {
  return {
    /** `GET /_control/accounts`: every account with its clock, the newest first. */
    listAccounts: (page: T.Page = {}) => call<T.AccountList>('GET', `/accounts${query(page)}`),
    /** `GET /_control/accounts/{id}/keys`: names and scopes, never secrets. */
    listKeys: (accountId: string) => call<T.KeyList>('GET', `/accounts/${path(accountId)}/keys`),
    /** `GET /_control/accounts/{id}/runs`: runs of every kind, newest first, with their next transition. */
    listRuns: (accountId: string, filter: T.RunFilter = {}) =>
      call<T.RunList>('GET', `/accounts/${path(accountId)}/runs${query(filter)}`),
    /** `GET /_control/runs/{id}`: the run with its timeline, log, files and archive link. */
    getRunDetail: (runId: string) => call<T.RunDetail>('GET', `/runs/${path(runId)}`),
    /** `GET /_control/kinds`: the run kinds served, with their phases and an example create body. */
    listKinds: () => call<T.KindList>('GET', '/kinds'),
    /** `GET /_control/webhook_endpoints?account=`: an account's endpoints, never their secrets. */
    listWebhookEndpoints: (accountId: string, page: T.Page = {}) =>
      call<T.WebhookEndpointList>(
        'GET',
        `/webhook_endpoints${query({ account: accountId, ...page })}`,
      ),
    /** `GET /_control/requests/{id}`: a journaled call with its request and answer, masked. */
    getRequest: (requestId: string) =>
      call<T.JournalEntryDetail>('GET', `/requests/${path(requestId)}`),
    /** `PUT /_control/faults/{id}`: the rule changed in place, its counters from zero (or installed under that id). */
    replaceFault: (id: string, body: T.FaultInput) =>
      call<T.FaultRule>('PUT', `/faults/${path(id)}`, body),
  };
}
