/**
 * `svc-emulator verify`: the conformance sequence against a target, in passes ordered so that a
 * small budget still covers every operation's plain read first (docs/verify.md).
 */
import { type Contract, emulatorContract, operationsOf } from './contract.js';
import { maskUrl } from './mask.js';
import { cleanUp } from './own-resources.js';
import { checkPaging } from './paging.js';
import {
  probeBadKey,
  probeBadParameters,
  probeNarrowKey,
  probeUnknownIds,
  probeVersions,
} from './probe-pass.js';
import { ok, readCollections, readItems } from './read-pass.js';
import { buildReport } from './report.js';
import type { Report } from './report-types.js';
import { Session, type VerifyOptions } from './session.js';
import { TargetClient } from './target-client.js';
import { runWrites } from './write-pass.js';

/** Verify could not run (exit 2): the target is unreachable, or refused the key. */
export class VerifyError extends Error {}

export interface VerifyResult {
  report: Report;
  session: Session;
}

export async function runVerify(
  options: VerifyOptions,
  contract?: Contract,
): Promise<VerifyResult> {
  const base = options.target.replace(/\/+$/, '');
  const client = new TargetClient(base, options.maxRequests, options.rps);
  const session = new Session(client, contract ?? (await emulatorContract()), options);
  await compareDocuments(session);
  await checkKey(session);
  await readCollections(session);
  if (options.writes) await runWrites(session);
  await readItems(session);
  await probeBadKey(session);
  await probeUnknownIds(session);
  await probeBadParameters(session);
  await checkPaging(session);
  await probeNarrowKey(session);
  await probeVersions(session);
  if (options.writes) await cleanUp(session);
  if (session.stopped) session.notes.push(session.stopped);
  const report = buildReport(
    {
      tool: 'verify',
      target: maskUrl(base),
      contract: `svc-emulator ${session.contract.version} /openapi.json`,
      requests: client.sent,
      options: {
        writes: options.writes,
        narrow_key: options.narrowKey !== undefined,
        max_requests: options.maxRequests,
        rps: options.rps,
        max_wait: options.maxWait,
      },
      notes: session.notes,
    },
    [...session.reports.values()],
  );
  return { report, session };
}

/**
 * The target's own `/openapi.json`, when it serves one, against the contract: an operation the
 * contract lists that the target's document does not is a difference of that operation.
 */
async function compareDocuments(session: Session): Promise<void> {
  const answer = await session.client.send({
    method: 'GET',
    path: '/openapi.json',
    headers: { accept: 'application/json' },
  });
  if (!answer || answer.networkError)
    throw new VerifyError(
      `cannot reach ${maskUrl(session.options.target)}: ${answer?.networkError ?? 'no budget'}`,
    );
  const doc = answer.json as Record<string, unknown> | undefined;
  if (answer.status !== 200 || !doc?.paths) {
    session.notes.push(
      `the target serves no OpenAPI document at /openapi.json (${answer.status}): its operations are checked against the emulator's contract only`,
    );
    return;
  }
  const theirs = new Set(operationsOf(doc).map((o) => `${o.method} ${o.path}`));
  const ours = new Set(session.contract.operations.map((o) => `${o.method} ${o.path}`));
  for (const op of session.contract.operations) {
    if (theirs.has(`${op.method} ${op.path}`)) continue;
    session.reports.get(op.operationId)!.checks.push({
      check: "listed in the target's /openapi.json",
      request: { method: 'GET', url: '/openapi.json', headers: { accept: 'application/json' } },
      answer: { status: answer.status, headers: {}, body: '(the target document, not repeated)' },
      matched: [],
      differences: [
        { field: 'operation', expected: `${op.method} ${op.path} listed`, actual: 'absent' },
      ],
    });
  }
  const extra = [...theirs].filter((o) => !ours.has(o));
  if (extra.length > 0)
    session.notes.push(
      `the target's document lists operations the emulator does not serve: ${extra.join(', ')}`,
    );
}

/** `GET /v1/keys/me` first: a target that refuses the key cannot be verified. */
async function checkKey(session: Session): Promise<void> {
  const me = session.contract.operations.find(
    (o) => o.method === 'GET' && o.path === '/v1/keys/me',
  );
  if (!me) return;
  const answer = await session.call(me, 'read', { path: me.path }, ok(me));
  if (answer?.networkError)
    throw new VerifyError(`cannot reach the target: ${answer.networkError}`);
  if (answer?.status === 401)
    throw new VerifyError('the target refused --key (401): check the key');
}
