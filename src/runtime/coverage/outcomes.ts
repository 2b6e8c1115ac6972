/**
 * The outcomes (status, error code) each product operation can answer, from the served document
 * and the error catalog:
 * 1. Statuses: the operation's `responses`; a 2xx is one outcome, code null.
 * 2. An error status's candidates: the catalog's codes of that status, less `NOT_OF_AN_OPERATION`.
 * 3. Documented: the candidates its response or operation description names in backticks.
 * 4. Narrowed by route data: `feature_not_enabled` only with `x-required-feature`; the concurrency
 *    and capacity 429s only where 402 is listed too, the mark of a call that starts a run.
 * 5. Inferred, added: `idempotency_key_reused` on every POST's 409 (DESIGN.md section 3), and the
 *    code a status-only fault gives (`defaultFaultCode`), but not that one on a non-POST.
 * 6. A status left with no code answers every candidate, inferred: the document does not say which.
 */
import { defaultFaultCode } from '../faults/fault-rules.js';
import { conflictNamed } from '../route-table.js';

/** The part of an OpenAPI document this module reads. */
export interface CoverageDocument {
  paths?: Record<string, Record<string, unknown>>;
}

export interface ExpectedOutcome {
  status: number;
  code: string | null;
  /** True when the document names it (the status, and for an error the code); false inferred. */
  documented: boolean;
}

export interface ExpectedOperation {
  operation: string;
  method: string;
  route: string;
  outcomes: ExpectedOutcome[];
}

interface OperationObject {
  operationId?: string;
  description?: string;
  responses?: Record<string, { description?: string }>;
  'x-required-feature'?: string;
}

/** Codes answered before an operation (the Node server's HTTP checks) or by the control API. */
const NOT_OF_AN_OPERATION: readonly string[] = [
  'request_malformed',
  'request_timeout',
  'request_header_too_large',
  'control_unauthorized',
  'cross_origin_forbidden',
  'host_not_allowed',
  'expectation_failed',
  'method_not_allowed',
];

/** Codes a run-starting call alone can give (runtime/engine/limits.ts). */
const RUN_START_ONLY: readonly string[] = ['concurrency_limit_exceeded', 'capacity_exceeded'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The codes of an error catalog, each with its status. */
export type ErrorStatuses = Readonly<Record<string, { status: number }>>;

function named(text: string | undefined): Set<string> {
  return new Set([...(text ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
}

function errorOutcomes(
  codes: ErrorStatuses,
  status: number,
  method: string,
  op: OperationObject,
  responseDescription: string | undefined,
): ExpectedOutcome[] {
  const startsRun = op.responses?.['402'] !== undefined;
  const possible = Object.keys(codes).filter(
    (c) =>
      codes[c]!.status === status &&
      !NOT_OF_AN_OPERATION.includes(c) &&
      (c !== 'feature_not_enabled' || op['x-required-feature'] !== undefined) &&
      (!RUN_START_ONLY.includes(c) || startsRun),
  );
  // No catalog code has this status: the status alone is the outcome.
  if (possible.length === 0) return [{ status, code: null, documented: true }];
  const mentioned = new Set([...named(responseDescription), ...named(op.description)]);
  const inferred = new Set<string>();
  if (status === 409 && method === 'POST') inferred.add('idempotency_key_reused');
  const byFault = defaultFaultCode(status, conflictNamed(op.responses?.['409']?.description));
  if (byFault !== 'idempotency_key_reused' || method === 'POST') inferred.add(byFault);
  const listed = possible.filter((c) => mentioned.has(c) || inferred.has(c));
  return (listed.length > 0 ? listed : possible).map((code) => ({
    status,
    code,
    documented: mentioned.has(code),
  }));
}

/** Every operation of the document, in its order, with the outcomes it can answer. */
export function expectedOutcomes(doc: CoverageDocument, codes: ErrorStatuses): ExpectedOperation[] {
  const out: ExpectedOperation[] = [];
  for (const [route, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = item[m] as OperationObject | undefined;
      if (!op?.operationId) continue;
      const method = m.toUpperCase();
      const statuses = Object.keys(op.responses ?? {})
        .map(Number)
        .filter(Number.isInteger)
        .sort((a, b) => a - b);
      const outcomes = statuses.flatMap((status) =>
        status < 400
          ? [{ status, code: null, documented: true }]
          : errorOutcomes(codes, status, method, op, op.responses?.[String(status)]?.description),
      );
      out.push({ operation: op.operationId, method, route, outcomes });
    }
  }
  return out;
}
