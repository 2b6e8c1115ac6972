/** What verify does with the resources it created: poll, read, cancel, resume, delete, clean up. */
import { createHash } from 'node:crypto';
import { type ContractOperation, successStatus } from './contract.js';
import { createOne } from './create-one.js';
import { ok, readItem } from './read-pass.js';
import { collectionOf, fillPath, pathParams } from './resources.js';
import type { Created, Session } from './session.js';
import { type Answer, waitUntil } from './target-client.js';

/** States a run or an asset leaves by itself (a webhook endpoint's `enabled` is not one). */
const UNDER_WAY: readonly string[] = ['queued', 'processing', 'canceling', 'validating'];

/** A 2xx answer about `c` with its body (cancel, resume) is its latest state. */
function keep(c: Created, answer: Answer | null): void {
  const body = answer?.json as Record<string, unknown> | undefined;
  if (answer && answer.status < 300 && body?.id === c.id) c.body = body;
}

function ended(c: Created): boolean {
  return !UNDER_WAY.includes(String(c.body.status));
}

/** The operation of `collection` at `suffix` (`''`, `/cancel`, ...) with `method`. */
function opAt(session: Session, collection: string, method: string, suffix: string) {
  return session.contract.operations.find(
    (o) =>
      o.method === method &&
      o.path.startsWith(`${collection}/{`) &&
      pathParams(o).length === 1 &&
      o.path.endsWith(`}${suffix}`),
  );
}

/** Reads `c` again, keeping its latest body. */
async function refresh(session: Session, c: Created, check: string, cleanUp = false) {
  const get = opAt(session, c.collection, 'GET', '');
  if (!get) return;
  const answer = await session.call(get, check, { path: fillPath(get, c.id), cleanUp }, ok(get));
  if (answer?.status === 200 && answer.json && typeof answer.json === 'object')
    c.body = answer.json as Record<string, unknown>;
}

/** Polls verify's unfinished resources until each ends or `--max-wait` passes. */
export async function pollToEnd(session: Session, only?: Created[]): Promise<void> {
  const mine = only ?? session.created;
  let interval = 500;
  await waitUntil(session.options.maxWait * 1000, async () => {
    const open = mine.filter((c) => !ended(c) && !c.deleted);
    for (const c of open) await refresh(session, c, 'poll to an end state');
    if (session.stopped || session.client.left <= 0) return true;
    if (mine.every((c) => ended(c) || c.deleted)) return true;
    interval = Math.min(interval * 1.5, 10_000);
    return interval;
  });
  for (const c of mine.filter((x) => !ended(x) && !x.deleted))
    session.notes.push(`${c.id} had not ended after --max-wait ${session.options.maxWait}s`);
}

/** Every GET about `c` (its item, logs, files, archive, episodes, operation), then its digest. */
async function readOwn(session: Session, c: Created): Promise<void> {
  for (const op of session.contract.operations) {
    if (op.method !== 'GET' || pathParams(op).length !== 1 || collectionOf(op) !== c.collection)
      continue;
    await readItem(session, op, c.body);
  }
  const archive = opAt(session, c.collection, 'GET', '/archive');
  if (archive && c.body.status === 'succeeded') await checkDigest(session, archive, c);
}

/** The whole archive: its bytes' SHA-256 and size are those the run's `download` states. */
async function checkDigest(session: Session, op: ContractOperation, c: Created): Promise<void> {
  const answer = await session.call(op, 'archive digest', { path: fillPath(op, c.id) }, ok(op));
  if (answer?.status !== 200) return;
  const download = (c.body.download ?? {}) as { sha256?: unknown; bytes?: unknown };
  // An archive over what verify keeps was hashed as it was read.
  const { sha256, bytes } = answer.over ?? {
    sha256: createHash('sha256').update(answer.bytes).digest('hex'),
    bytes: answer.bytes.length,
  };
  const same = (field: string, expected: unknown, actual: unknown) =>
    session.amend(op, field, expected === actual, { field, expected, actual });
  same('download.sha256', download.sha256, sha256);
  same('download.bytes', download.bytes, bytes);
  const etag = answer.headers.etag?.replace(/^W\//, '').replace(/"/g, '');
  if (etag !== undefined) same('header ETag', sha256, etag);
}

/** Cancel and resume of `c` as its state allows: 409 when it does not (API document section 7). */
async function cancelAndResume(session: Session, c: Created, check: string): Promise<void> {
  const cancel = opAt(session, c.collection, 'POST', '/cancel');
  const resume = opAt(session, c.collection, 'POST', '/resume');
  if (cancel) {
    const expect = ended(c)
      ? { status: [409], codes: ['not_cancelable'] }
      : { status: [successStatus(cancel), 409], codes: ['not_cancelable'] };
    const answer = await session.call(
      cancel,
      `${check}cancel`,
      { path: fillPath(cancel, c.id) },
      expect,
    );
    keep(c, answer);
    if (answer && answer.status < 300) await pollToEnd(session, [c]);
  }
  if (!resume || !ended(c)) return;
  const error = c.body.error as { resumable?: unknown } | null | undefined;
  // DESIGN.md section 3: only a failed or canceled run with a resumable error resumes.
  const resumable =
    (c.body.status === 'failed' || c.body.status === 'canceled') && error?.resumable !== false;
  const expect = resumable
    ? { status: [successStatus(resume)] }
    : { status: [409], codes: ['not_resumable'] };
  const answer = await session.call(
    resume,
    `${check}resume`,
    { path: fillPath(resume, c.id) },
    expect,
  );
  keep(c, answer);
}

/** DELETE of `c`, then a read and a second DELETE, both 404. */
async function deleteOwn(session: Session, c: Created): Promise<void> {
  const del = opAt(session, c.collection, 'DELETE', '');
  if (!del || c.deleted) return;
  const answer = await session.call(del, 'delete', { path: fillPath(del, c.id) }, ok(del));
  if (!answer || answer.status >= 300) return;
  c.deleted = true;
  const gone = { status: [404], codes: ['resource_not_found'] };
  const get = opAt(session, c.collection, 'GET', '');
  if (get) await session.call(get, 'read after delete', { path: fillPath(get, c.id) }, gone);
  await session.call(del, 'delete again', { path: fillPath(del, c.id) }, gone);
}

/** Everything verify does with what it created, after the polls. */
export async function followUps(session: Session): Promise<void> {
  for (const c of [...session.created]) await readOwn(session, c);
  for (const c of [...session.created]) await cancelAndResume(session, c, '');
  await cancelFresh(session);
  for (const c of [...session.created]) await deleteOwn(session, c);
}

/** A second run of the first kind that can be canceled, canceled while it runs. */
async function cancelFresh(session: Session): Promise<void> {
  const kind = session.created.find((c) => opAt(session, c.collection, 'POST', '/cancel'));
  const create =
    kind &&
    session.contract.operations.find((o) => o.method === 'POST' && o.path === kind.collection);
  if (!create) return;
  const made = await createOne(session, create, 'create (to cancel)');
  const c = made && session.created.at(-1);
  if (!c) return;
  await cancelAndResume(session, c, 'fresh run: ');
  // A resumed run spends tokens: it is stopped again at once.
  const cancel = opAt(session, c.collection, 'POST', '/cancel');
  if (cancel && !ended(c))
    await cancelUnderWay(session, cancel, c, 'fresh run: cancel after resume');
}

/** Cancels `c`, under way; one that ended meanwhile answers 409 `not_cancelable`. */
async function cancelUnderWay(
  session: Session,
  cancel: ContractOperation,
  c: Created,
  check: string,
  cleanUp = false,
): Promise<void> {
  const expect = { status: [successStatus(cancel), 409], codes: ['not_cancelable'] };
  const spec = { path: fillPath(cancel, c.id), cleanUp };
  keep(c, await session.call(cancel, check, spec, expect));
}

/** Last: cancels verify's runs still under way, deletes what it made and has not deleted. */
export async function cleanUp(session: Session): Promise<void> {
  for (const c of session.created) {
    const cancel = opAt(session, c.collection, 'POST', '/cancel');
    if (cancel && !ended(c)) await refresh(session, c, 'clean-up read', true);
    if (cancel && !ended(c) && c.body.status !== 'canceling')
      await cancelUnderWay(session, cancel, c, 'clean-up cancel', true);
    const del = opAt(session, c.collection, 'DELETE', '');
    if (del && !c.deleted) {
      const spec = { path: fillPath(del, c.id), cleanUp: true };
      const answer = await session.call(del, 'clean-up delete', spec, ok(del));
      if (answer && answer.status < 300) c.deleted = true;
    }
  }
  const left = session.created.filter(
    (c) =>
      (!ended(c) && c.body.status !== 'canceling') ||
      (opAt(session, c.collection, 'DELETE', '') && !c.deleted),
  );
  if (left.length > 0)
    session.notes.push(
      `left on the target (not ended or not deleted): ${left.map((c) => c.id).join(', ')}`,
    );
}
