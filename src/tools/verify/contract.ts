/**
 * The contract verify and the proxy check answers against: the product document this version of
 * the emulator serves (`GET /openapi.json`), indexed by operation. It is the emulator's own
 * document, not the target's: the question is where the emulator and the service differ.
 */
import { createEmulator } from '../emulator.js';
import type { SchemaCheck } from './schema-check.js';
import type { Schema } from './schema-close.js';

export type { Schema } from './schema-close.js';

export interface ContractResponse {
  description?: string;
  /** The error codes the response answers (the route's data, DESIGN.md section 2). */
  'x-error-codes'?: string[];
  /** Only the emulator's fault rules give it: no service is expected to. */
  'x-fault-only'?: boolean;
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
  content?: Record<string, { schema?: Schema }>;
}

export interface ContractParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}

export interface ContractOperation {
  operationId: string;
  /** Upper case: `GET`. */
  method: string;
  /** The template: `/v1/evaluations/{run_id}`. */
  path: string;
  /** `x-inferred`: the API document does not specify the operation. */
  inferred: boolean;
  parameters: ContractParameter[];
  responses: Record<string, ContractResponse>;
  /** The request body's example, where the document gives one. */
  example?: unknown;
  /** The request body's schema, where there is one. */
  requestSchema?: Schema;
  /** `x-required-scope`, e.g. `evaluations:read`. */
  scope?: string;
  /** `x-required-feature`, e.g. `twins`. */
  feature?: string;
  /** False for the operations that need no key (`security: []`). */
  needsKey: boolean;
}

export interface Contract {
  /** The whole served document, for `$ref` lookups. */
  document: { components?: { schemas?: Record<string, Schema> } } & Record<string, unknown>;
  operations: ContractOperation[];
  /** Checks a body against one of the document's schemas (ajv, each schema compiled once). */
  checkBody: SchemaCheck;
  /** The emulator version that serves it. */
  version: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema with its `$ref` to the document's components followed. */
export function resolveRef(document: Contract['document'], schema: Schema | undefined) {
  const name = /^#\/components\/schemas\/(.+)$/.exec(String(schema?.$ref ?? ''))?.[1];
  return name ? document.components?.schemas?.[name] : schema;
}

/** The operations of an OpenAPI document, in document order. */
export function operationsOf(document: Contract['document']): ContractOperation[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const out: ContractOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const json = (op.requestBody as { content?: Record<string, Record<string, unknown>> })
        ?.content?.['application/json'];
      out.push({
        operationId: String(op.operationId ?? `${method.toUpperCase()} ${path}`),
        method: method.toUpperCase(),
        path,
        inferred: op['x-inferred'] === true,
        parameters: (op.parameters ?? []) as ContractParameter[],
        responses: (op.responses ?? {}) as Record<string, ContractResponse>,
        example: json?.example ?? resolveRef(document, json?.schema as Schema)?.example,
        requestSchema: json?.schema as Schema | undefined,
        scope: op['x-required-scope'] as string | undefined,
        feature: op['x-required-feature'] as string | undefined,
        needsKey: !(Array.isArray(op.security) && op.security.length === 0),
      });
    }
  }
  return out;
}

/** The document an emulator with these settings serves; `strict` serves the documented part only. */
export async function emulatorContract(options: { strict?: boolean } = {}): Promise<Contract> {
  const emulator = createEmulator({ control: false, strict: options.strict ?? false });
  try {
    const res = await emulator.app.request('/openapi.json');
    const document = (await res.json()) as Contract['document'];
    // ajv is loaded here, not with the bin: the emulator's own cold start does not evaluate it.
    const { schemaCheck } = await import('./schema-check.js');
    return {
      document,
      operations: operationsOf(document),
      checkBody: schemaCheck(document.components?.schemas ?? {}),
      version: emulator.deps.config.version,
    };
  } finally {
    emulator.close();
  }
}

/** The operation serving `method` and a concrete `path` (no query), with its path parameters. */
export function matchOperation(
  contract: Contract,
  method: string,
  path: string,
): { op: ContractOperation; params: Record<string, string> } | undefined {
  const segments = path.split('/');
  let best: { op: ContractOperation; params: Record<string, string>; literal: number } | undefined;
  for (const op of contract.operations) {
    if (op.method !== method.toUpperCase()) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literal = 0;
    const fits = template.every((t, i) => {
      const m = /^\{(.+)\}$/.exec(t);
      if (m) {
        params[m[1]!] = decodeURIComponent(segments[i]!);
        return segments[i] !== '';
      }
      literal++;
      return t === segments[i];
    });
    // The most literal segments win: `/v1/catalog/datasets` over `/v1/catalog/{x}`.
    if (fits && (!best || literal > best.literal)) best = { op, params, literal };
  }
  return best && { op: best.op, params: best.params };
}

/** The schema of an answer of `op` with `status` and a JSON body, if the contract has one. */
export function responseSchema(op: ContractOperation, status: number): Schema | undefined {
  return op.responses[String(status)]?.content?.['application/json']?.schema;
}

/** The error codes `op` declares for `status`, e.g. `twin_not_ready`. */
export function codesDeclared(op: ContractOperation, status: number): string[] {
  return op.responses[String(status)]?.['x-error-codes'] ?? [];
}

/** The statuses `op` declares that a service may answer (not those only a fault gives), as numbers. */
export function declaredStatuses(op: ContractOperation): number[] {
  return Object.entries(op.responses)
    .filter(([, response]) => !response['x-fault-only'])
    .map(([status]) => Number(status))
    .filter((n) => Number.isInteger(n));
}

/** The success status `op` declares first (200, 201 or 202). */
export function successStatus(op: ContractOperation): number {
  return declaredStatuses(op).find((s) => s >= 200 && s < 300) ?? 200;
}
