/** A create from the contract's request example, recorded as verify's own resource. */
import { type ContractOperation, successStatus } from './contract.js';
import { orFeatureGate } from './judge.js';
import { pathParams } from './resources.js';
import type { Session } from './session.js';

/** Requests a create keeps in hand for its follow-ups and its clean-up. */
const RESERVE_PER_CREATE = 20;
/** Requests kept aside, per resource created, for `cleanUp` (own-resources.ts). */
export const CLEAN_UP_REQUESTS = 2;

export function isCreate(op: ContractOperation): boolean {
  return op.method === 'POST' && pathParams(op).length === 0;
}

/**
 * The request example with its ids replaced by ids the target listed of the same prefix
 * (`ds_...` by a dataset of the target's catalog), so a create names things that exist there.
 */
export function fillExample(session: Session, example: unknown): unknown {
  if (Array.isArray(example)) return example.map((v) => fillExample(session, v));
  if (example && typeof example === 'object')
    return Object.fromEntries(
      Object.entries(example).map(([k, v]) => [k, fillExample(session, v)]),
    );
  const prefix = typeof example === 'string' ? /^([a-z]+_)[A-Za-z0-9_]+$/.exec(example)?.[1] : null;
  if (!prefix) return example;
  for (const items of session.listed.values()) {
    const hit = items.find((i) => typeof i.id === 'string' && i.id.startsWith(prefix));
    if (hit) return hit.id;
  }
  return example;
}

/** Creates one resource of `op` and records it as verify's own; returns its body. */
export async function createOne(
  session: Session,
  op: ContractOperation,
  check = 'create',
): Promise<Record<string, unknown> | null> {
  if (session.client.left < RESERVE_PER_CREATE) {
    session.notRun(op, check, 'too few requests left in the budget to clean up after a create');
    return null;
  }
  const body = fillExample(session, op.example);
  const headers = { 'idempotency-key': session.idempotencyKey() };
  const spec = { path: op.path, body, headers };
  const answer = await session.call(
    op,
    check,
    spec,
    orFeatureGate(op, { status: [successStatus(op)] }),
  );
  const made = answer?.json as Record<string, unknown> | undefined;
  if (!answer || answer.status >= 300 || typeof made?.id !== 'string') return null;
  session.created.push({ collection: op.path, id: made.id, body: made });
  // Its clean-up (a read, then a cancel or a delete) is sent whatever the budget has left.
  session.client.reserved += CLEAN_UP_REQUESTS;
  return made;
}
