/** Which resource an operation is about, and the ids verify fills its path with. */
import {
  type Contract,
  type ContractOperation,
  resolveRef,
  responseSchema,
  successStatus,
} from './contract.js';
import type { Session } from './session.js';

/**
 * Paths whose id is another collection's (DESIGN.md section 3: sim run logs and files take
 * evaluation ids; section 7: an operation is any run, read here through an evaluation).
 */
const ID_ALIASES: Record<string, string> = {
  '/v1/sim_runs': '/v1/evaluations',
  '/v1/operations': '/v1/evaluations',
};

/** The part of the template before its first parameter: `/v1/evaluations`. */
export function collectionOf(op: ContractOperation): string {
  const base = op.path.split('/{')[0]!;
  return ID_ALIASES[base] ?? base;
}

/** The path parameters of `op`'s template, in order. */
export function pathParams(op: ContractOperation): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** A read of one item of a collection: its path has one parameter and nothing after it. */
export function isItemRead(op: ContractOperation): boolean {
  return op.method === 'GET' && /^[^{]*\{[^}]+\}$/.test(op.path);
}

/** Something of an item: `/v1/evaluations/{run_id}/logs`. */
export function isSubResource(op: ContractOperation): boolean {
  return /\}\/./.test(op.path);
}

/** The template with each parameter replaced by `id`, and `query` appended. */
export function fillPath(op: ContractOperation, id: string, query = ''): string {
  return op.path.replace(/\{[^}]+\}/g, encodeURIComponent(id)) + query;
}

/** The id prefix of a collection's items, from the contract's example id (`eval_...`). */
export function idPrefix(contract: Contract, collection: string): string {
  const read = contract.operations.find((o) => isItemRead(o) && collectionOf(o) === collection);
  const schema = read && responseSchema(read, successStatus(read));
  const target = resolveRef(contract.document, schema);
  const example = (target?.properties as Record<string, { example?: unknown }> | undefined)?.id
    ?.example;
  return /^([a-z]+_)/.exec(String(example ?? ''))?.[1] ?? 'unknown_';
}

/** An id no resource has: the collection's prefix and 26 zeros. */
export function unknownId(contract: Contract, collection: string): string {
  return `${idPrefix(contract, collection)}${'0'.repeat(26)}`;
}

/**
 * An item of `op`'s collection to read: one verify created, else one the target listed; for a
 * sub-resource a succeeded one when there is one.
 */
export function itemFor(session: Session, op: ContractOperation): Record<string, unknown> | null {
  const collection = collectionOf(op);
  const own = session.created
    .filter((c) => c.collection === collection && !c.deleted)
    .map((c) => c.body);
  const pool = [...own, ...(session.listed.get(collection) ?? [])];
  if (pool.length === 0) return null;
  if (!isSubResource(op)) return pool[0]!;
  return pool.find((item) => item.status === 'succeeded') ?? pool[0]!;
}
