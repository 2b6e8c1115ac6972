/**
 * The harness methods of the error-handling lab (issue 38; docs/error-handling.md): the client
 * report, judged from the journal, and fault sweeps. Faults after the write are fault rules
 * (`createFault` with `after`).
 */

import type * as T from './control-types.js';
import type { Call } from './list-methods.js';

/** Which traffic a client report judges: an account's keys, or one key's. */
export interface ClientReportScope {
  account: string;
  key?: string;
}

/** `?account=...&key=...&format=...` of the fields that are set. */
function reportQuery(scope: ClientReportScope, format: 'json' | 'markdown'): string {
  const q = new URLSearchParams({ account: scope.account, format });
  if (scope.key !== undefined) q.set('key', scope.key);
  return `?${q}`;
}

export function labMethods(call: Call) {
  return {
    /**
     * `GET /_control/client_report`: each key's calls judged against the rules a careful client
     * follows, each finding with the request ids and times that show it.
     */
    clientReport: (scope: ClientReportScope) =>
      call<T.ClientReport>('GET', `/client_report${reportQuery(scope, 'json')}`),
    /** The same report as Markdown, for a CI log or a pull request. */
    clientReportMarkdown: (scope: ClientReportScope) =>
      call<string>('GET', `/client_report${reportQuery(scope, 'markdown')}`),
    /** `POST /_control/sweeps`: every (operation x fault) pair armed once. */
    createSweep: (body: T.SweepInput = {}) => call<T.Sweep>('POST', '/sweeps', body),
    /** `GET /_control/sweeps/{id}`: the matrix of what the client did after each fault. */
    getSweep: (id: string) => call<T.Sweep>('GET', `/sweeps/${encodeURIComponent(id)}`),
    listSweeps: () => call<T.List<T.Sweep>>('GET', '/sweeps'),
    deleteSweep: (id: string) =>
      call<{ id: string; deleted: true }>('DELETE', `/sweeps/${encodeURIComponent(id)}`),
  };
}
