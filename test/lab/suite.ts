/**
 * A team's suite as the error-handling lab grades it (issue 38): six calls, each meeting a failure
 * armed with a fault rule just before it. Any client under test sends them (`Sender`).
 */
import type { ControlClient, TestAccount } from '../../src/tools/harness/index.js';
import type { Sender } from './client.js';

const spec = (name: string) => ({ spec: { path: 'sdk/spec.yaml', name } });

/** What each step answered in the end, for the test to check the suite did what it meant. */
export async function errorSuite(control: ControlClient, acct: TestAccount, send: Sender) {
  const account = acct.account.id;
  const arm = (operation: string, respond: Record<string, unknown>, times: number) =>
    control.createFault({ match: { account, operation }, respond, times } as never);
  // Two calls failing twice each: waits that grow, and differ between calls.
  await arm('getCurrentKey', { status: 502 }, 2);
  const me = await send({ method: 'GET', path: '/keys/me' });
  await arm('listEvaluations', { status: 503 }, 2);
  const list = await send({ method: 'GET', path: '/evaluations' });
  // A write whose answer is lost after the work: the retry must replay it, not make another.
  await arm('createEvaluation', { status: 502, after: true }, 1);
  const created = await send({ method: 'POST', path: '/evaluations', body: spec('lost') });
  // A 429 asking for 2 s.
  await arm('getCurrentKey', { status: 429, code: 'rate_limit_exceeded', retry_after: 2 }, 1);
  const limited = await send({ method: 'GET', path: '/keys/me' });
  // A 409: the suite reuses a key with another body; nothing sent again can change that.
  await send({ method: 'POST', path: '/evaluations', body: spec('a'), idempotencyKey: 'k-409' });
  const conflict = await send({
    method: 'POST',
    path: '/evaluations',
    body: spec('b'),
    idempotencyKey: 'k-409',
  });
  // An outage of 12 failures: a bounded client gives up, a storm goes on.
  const outage = await arm('listEvaluations', { status: 503 }, 12);
  const down = await send({ method: 'GET', path: '/evaluations' });
  await control.deleteFault(outage.id);
  return { me, list, created, limited, conflict, down };
}

/** Each finding's verdict, by rule, of the account's only key. */
export async function verdicts(acct: TestAccount): Promise<Record<string, string>> {
  const report = await acct.clientReport();
  return Object.fromEntries(report.keys[0]!.findings.map((f) => [f.rule, f.verdict]));
}

/** The careful client's verdicts: every rule the suite gives evidence for passes. */
export const CAREFUL = {
  retryable_retried: 'pass',
  retries_bounded: 'pass',
  backoff: 'pass',
  jitter: 'pass',
  retry_after_honoured: 'pass',
  final_not_resent: 'pass',
  idempotency_key_kept: 'pass',
  no_duplicate_write: 'pass',
  hang_abandoned: 'not_judged',
};
