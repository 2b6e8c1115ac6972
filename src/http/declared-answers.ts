/**
 * What the request pipeline adds to every product operation's answers, declared in the served
 * document from the routes' own data: 413 on a call that can carry a body, `feature_not_enabled`
 * where a feature gates it, `idempotency_key_reused` on a POST's 409, and every status a fault
 * rule or `X-Emulator-Fault` can give it (DESIGN.md section 5), flagged `x-inferred` where the
 * route does not declare it (and `x-fault-only` where nothing else gives it). Typed clients then
 * type those errors, and coverage lists them.
 */

import { FAULT_STATUSES } from '../areas/faults/contract.js';
import {
  conflictOf,
  defaultFaultCode,
  describeAnswer,
  exampleAnswer,
} from '../core/error-answers.js';

interface Response {
  description?: string;
  content?: Record<string, { schema?: unknown; example?: unknown }>;
  headers?: unknown;
  'x-error-codes'?: string[];
  'x-inferred'?: boolean;
  'x-fault-only'?: boolean;
}

interface Operation {
  responses?: Record<string, Response>;
  'x-required-feature'?: string;
}

const BODY_METHODS = ['post', 'put', 'patch', 'delete'];
const METHODS = ['get', ...BODY_METHODS];

/**
 * Adds `codes` to the error response of `status`, or a new response of them, inferred; one that
 * only a fault gives is marked `x-fault-only` (verify and the proxy expect no service to give it).
 */
function declare(op: Operation, status: number, codes: string[], why: string, faultOnly = false) {
  const responses = op.responses ?? {};
  op.responses = responses;
  const found = responses[String(status)];
  if (found) {
    const known = found['x-error-codes'] ?? [];
    const added = codes.filter((c) => !known.includes(c));
    if (added.length === 0) return;
    found['x-error-codes'] = [...known, ...added];
    found.description = describeAnswer(status, found['x-error-codes']);
    return;
  }
  // Any error response lends its headers and schema: they are the same envelope.
  const envelope = Object.entries(responses).find(([s]) => Number(s) >= 400)?.[1];
  const schema = envelope?.content?.['application/json']?.schema;
  responses[String(status)] = {
    description: `${describeAnswer(status, codes)} ${why}`,
    headers: envelope?.headers,
    content: { 'application/json': { schema, example: exampleAnswer(status, codes) } },
    'x-error-codes': codes,
    'x-inferred': true,
    ...(faultOnly ? { 'x-fault-only': true } : {}),
  };
}

/**
 * Declares, on every operation of `doc`, the answers the pipeline can give it beside its route's.
 * @example withDeclaredAnswers(product)
 */
export function withDeclaredAnswers(doc: { paths?: Record<string, unknown> }): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op?.responses) continue;
      if (BODY_METHODS.includes(method))
        declare(op, 413, ['request_too_large'], 'Inferred: the body limit of every call.');
      if (op['x-required-feature'])
        declare(op, 403, ['feature_not_enabled'], 'Inferred: the account lacks the feature.');
      if (method === 'post')
        declare(op, 409, ['idempotency_key_reused'], 'Inferred: every POST takes one.');
      declare(op, 500, ['api_error'], 'Inferred: an unexpected failure of the emulator.');
      const conflict = conflictOf(op.responses);
      for (const status of FAULT_STATUSES)
        declare(
          op,
          status,
          [defaultFaultCode(status, conflict)],
          'Inferred: only a fault rule or `X-Emulator-Fault` answers it here.',
          true,
        );
      op.responses = Object.fromEntries(
        Object.entries(op.responses).sort(([a], [b]) => Number(a) - Number(b)),
      );
    }
  }
}
