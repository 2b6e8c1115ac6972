/** The reads: every list and singleton, then every item and sub-resource with an id the target has. */
import {
  type ContractOperation,
  codesDeclared,
  declaredStatuses,
  successStatus,
} from './contract.js';
import { type Expectation, orFeatureGate } from './judge.js';
import { collectionOf, fillPath, isSubResource, itemFor, pathParams } from './resources.js';
import type { Session } from './session.js';

/** Pass 1: the GETs without a path parameter; their items feed the later passes. */
export async function readCollections(session: Session): Promise<void> {
  for (const op of session.contract.operations) {
    if (op.method !== 'GET' || pathParams(op).length > 0 || session.has(op, 'read')) continue;
    const answer = await session.call(op, 'read', { path: op.path }, ok(op));
    const data = (answer?.json as { data?: unknown } | undefined)?.data;
    if (answer?.status === 200 && Array.isArray(data))
      session.listed.set(
        op.path,
        data.filter((d) => d && typeof d === 'object'),
      );
  }
}

/** Pass 2: the GETs of one item, with an id from the target (or one verify created). */
export async function readItems(session: Session): Promise<void> {
  for (const op of session.contract.operations) {
    if (op.method !== 'GET' || pathParams(op).length === 0 || session.has(op, 'read')) continue;
    const item = itemFor(session, op) ?? (await listAgain(session, op));
    if (!item) {
      session.notRun(op, 'read', `nothing to read: the target listed no ${collectionOf(op)}`);
      continue;
    }
    await readItem(session, op, item);
  }
}

/** After `--writes`, a collection listed empty before may hold items (events): one more read. */
async function listAgain(session: Session, op: ContractOperation) {
  const list = session.contract.operations.find(
    (o) => o.method === 'GET' && o.path === collectionOf(op),
  );
  if (!session.options.writes || !list || session.has(list, 'read after the writes')) return null;
  const answer = await session.call(list, 'read after the writes', { path: list.path }, ok(list));
  const data = (answer?.json as { data?: unknown } | undefined)?.data;
  if (answer?.status === 200 && Array.isArray(data))
    session.listed.set(
      list.path,
      data.filter((d) => d && typeof d === 'object'),
    );
  return itemFor(session, op);
}

/** One read of `op` for `item`: a sub-resource of an unfinished run answers 409 where declared. */
export async function readItem(
  session: Session,
  op: ContractOperation,
  item: Record<string, unknown>,
  check = 'read',
  version?: string,
): Promise<void> {
  const id = String(item.id);
  const pinned: Record<string, string> = version ? { 'service-version': version } : {};
  const notReady =
    isSubResource(op) &&
    item.status !== undefined &&
    item.status !== 'succeeded' &&
    declaredStatuses(op).includes(409);
  if (notReady) {
    const expect = orFeatureGate(op, { status: [409], codes: codesDeclared(op, 409) });
    await session.call(op, check, { path: fillPath(op, id), headers: pinned }, expect);
    return;
  }
  // The archive read asks for its first byte only: a real archive can be large.
  if (op.path.endsWith('/archive') && declaredStatuses(op).includes(206)) {
    const headers = { ...pinned, range: 'bytes=0-0' };
    const expect = orFeatureGate(op, { status: [206], version });
    await session.call(op, check, { path: fillPath(op, id), headers }, expect);
    return;
  }
  await session.call(
    op,
    check,
    { path: fillPath(op, id), headers: pinned },
    { ...ok(op), version },
  );
}

/** The plain success of `op`, or 403 `feature_not_enabled` where a feature gates it. */
export function ok(op: ContractOperation): Expectation {
  return orFeatureGate(op, { status: [successStatus(op)] });
}
