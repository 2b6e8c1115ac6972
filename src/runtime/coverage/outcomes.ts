/**
 * Which outcomes (status, error code) each product operation can answer, read from the served
 * OpenAPI document and the error catalog (issue 13 part 4). How a code is chosen, per operation:
 *
 * 1. Statuses: exactly the keys of the operation's `responses`. A 2xx is one outcome, code null.
 * 2. For an error status, the candidates are the catalog codes of that status (src/errors.ts and
 *    the kinds' own, `errorCatalog`),
 *    minus those no product operation answers (`NOT_OF_AN_OPERATION`).
 * 3. Documented: the candidates named in backticks by the response's description or the
 *    operation's description. The contract writes these per route (`errorResponses` overrides),
 *    so they are the route's own statement of its codes.
 * 4. Narrowed by the route's data where the document says more than one route can give:
 *    `feature_not_enabled` only where the operation has `x-required-feature`; the concurrency and
 *    capacity 429s only where it also lists 402, the mark of a call that starts (and charges) a
 *    run, which is all runtime/engine/limits.ts gates.
 * 5. Inferred (documented: false), added to the documented ones: `idempotency_key_reused` on the
 *    409 of every POST (DESIGN.md section 3: Idempotency-Key is honoured on every POST), and the
 *    code a status-only fault gives the operation (`defaultFaultCode`, whose 409 per operation is
 *    the fault module's table of real conflicts), unless it is the idempotency code on a non-POST.
 * 6. A status for which no code is left answers with every candidate, inferred: the document lists
 *    the status but not which of its codes, so any of them may come.
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

/**
 * Codes answered before a request reaches an operation (the Node server refuses malformed HTTP,
 * slow or oversized headers) or only by the control API: no operation can be credited with them.
 */
const NOT_OF_AN_OPERATION: readonly string[] = [
  'request_malformed',
  'request_timeout',
  'request_header_too_large',
  'control_unauthorized',
  'cross_origin_forbidden',
];

/** Codes a run-starting call alone can give (runtime/engine/limits.ts). */
const RUN_START_ONLY: readonly string[] = ['concurrency_limit_exceeded', 'capacity_exceeded'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The codes of an error catalog, each with its status. */
export type ErrorStatuses = Readonly<Record<string, { status: number }>>;

function candidates(codes: ErrorStatuses, status: number): string[] {
  return Object.keys(codes).filter(
    (c) => codes[c]!.status === status && !NOT_OF_AN_OPERATION.includes(c),
  );
}

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
  const possible = candidates(codes, status).filter(
    (c) =>
      (c !== 'feature_not_enabled' || op['x-required-feature'] !== undefined) &&
      (!RUN_START_ONLY.includes(c) || startsRun),
  );
  const mentioned = new Set([...named(responseDescription), ...named(op.description)]);
  const documented = possible.filter((c) => mentioned.has(c));
  const inferred = new Set<string>();
  if (status === 409 && method === 'POST') inferred.add('idempotency_key_reused');
  const byFault = defaultFaultCode(status, conflictNamed(op.responses?.['409']?.description));
  if (byFault !== 'idempotency_key_reused' || method === 'POST') inferred.add(byFault);
  const extra = possible.filter((c) => inferred.has(c) && !documented.includes(c));
  // No catalog code has this status (none does today): the status alone is the outcome.
  if (possible.length === 0) return [{ status, code: null, documented: true }];
  const chosen = documented.length + extra.length > 0 ? [...documented, ...extra] : possible;
  return Object.keys(codes)
    .filter((c) => chosen.includes(c))
    .map((code) => ({
    status,
    code,
    documented: documented.includes(code),
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
