/**
 * The outcomes (status, error code) each product operation can answer, read from the served
 * document's data: each status of the operation's `responses`, a 2xx or 3xx one outcome with code
 * null, an error status one outcome per code of its `x-error-codes` (the route's own codes, and
 * those the pipeline and fault rules add: http/declared-answers.ts). An outcome is documented
 * when the API document names it: the operation, the response and the code are none of them
 * inferred (`x-inferred`, or the error catalog's `inferred`).
 */

/** The part of an OpenAPI document this module reads. */
export interface CoverageDocument {
  paths?: Record<string, Record<string, unknown>>;
}

export interface ExpectedOutcome {
  status: number;
  code: string | null;
  /** True when the API document names it (the status, and for an error the code); false inferred. */
  documented: boolean;
}

export interface ExpectedOperation {
  operation: string;
  method: string;
  route: string;
  outcomes: ExpectedOutcome[];
}

interface ResponseObject {
  'x-error-codes'?: string[];
  'x-inferred'?: boolean;
}

interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
  'x-inferred'?: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The codes of an error catalog, each with its status and whether it is inferred. */
export type ErrorStatuses = Readonly<Record<string, { status: number; inferred?: boolean }>>;

function outcomesOf(
  status: number,
  response: ResponseObject,
  op: OperationObject,
  codes: ErrorStatuses,
): ExpectedOutcome[] {
  const named = !op['x-inferred'] && !response['x-inferred'];
  const listed = status < 400 ? [] : (response['x-error-codes'] ?? []);
  if (listed.length === 0) return [{ status, code: null, documented: named }];
  return listed.map((code) => ({ status, code, documented: named && !codes[code]?.inferred }));
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
        outcomesOf(status, op.responses?.[String(status)] ?? {}, op, codes),
      );
      out.push({ operation: op.operationId, method, route, outcomes });
    }
  }
  return out;
}
