/**
 * `--writes`: one create per creatable collection (from the contract's request example), a body
 * the contract refuses, then the follow-ups on what verify created: poll to an end state, read
 * every sub-resource, the archive digest, cancel and resume, delete. Verify cancels and deletes
 * only what it created (DESIGN.md section 8).
 */
import { type ContractOperation, resolveRef, type Schema, successStatus } from './contract.js';
import { CLEAN_UP_REQUESTS, createOne, fillExample, isCreate } from './create-one.js';
import { orFeatureGate } from './judge.js';
import { followUps, pollToEnd } from './own-resources.js';
import type { Session } from './session.js';

/** The required fields of a request schema, the `param` a body missing them all may name. */
function requiredFields(session: Session, schema: Schema | undefined): string[] {
  const target = resolveRef(session.contract.document, schema);
  return ((target?.required ?? []) as string[]).slice();
}

/** The same create again with the same Idempotency-Key: the first answer, replayed. */
async function replayOne(session: Session, op: ContractOperation, first: Record<string, unknown>) {
  const last = session.reports.get(op.operationId)!.checks.at(-1)!;
  const headers = { 'idempotency-key': last.request.headers['idempotency-key']! };
  const spec = { path: op.path, body: fillExample(session, op.example), headers };
  const answer = await session.call(op, 'idempotent replay', spec, { status: [successStatus(op)] });
  if (!answer || answer.status >= 300) return;
  const id = (answer.json as { id?: unknown } | undefined)?.id;
  session.amend(op, 'replay.id', id === first.id, {
    field: 'body.id',
    expected: `${String(first.id)} (the first answer's)`,
    actual: id,
  });
  const replayed = answer.headers['idempotent-replayed'];
  session.amend(op, 'header Idempotent-Replayed', replayed === 'true', {
    field: 'header Idempotent-Replayed',
    expected: 'true',
    actual: replayed ?? 'missing',
    inferred: true,
  });
}

export async function runWrites(session: Session): Promise<void> {
  const creates = session.contract.operations.filter((op) => isCreate(op) && op.example);
  let replayed = false;
  for (const op of creates) {
    const made = await createOne(session, op);
    if (made && !replayed) {
      replayed = true;
      await replayOne(session, op, made);
    }
    const param = requiredFields(session, op.requestSchema);
    const expect = orFeatureGate(op, { status: [400], codes: ['parameter_invalid'], param });
    const bad = await session.call(op, 'invalid body', { path: op.path, body: {} }, expect);
    const id = (bad?.json as { id?: unknown } | undefined)?.id;
    if (bad && bad.status < 300 && typeof id === 'string') {
      session.created.push({ collection: op.path, id, body: bad.json as Record<string, unknown> });
      session.client.reserved += CLEAN_UP_REQUESTS;
    }
  }
  await pollToEnd(session);
  await followUps(session);
}
