/**
 * The receiver report (docs/runtime.md "Receiver chaos"): an endpoint's receiver judged by its
 * answers to the deliveries kept. Forged and stale deliveries must be refused (a 4xx); real ones,
 * duplicates, unknown types and events held back must be accepted (a 2xx). A network error or no
 * answer judges nothing. The shape is stable: `svc-emulator grade` and CI read it.
 */
import { toTimestamp } from '../../core/clock.js';
import type { Deps } from '../../engine/deps.js';
import { expectedAnswer, isExtra } from './chaos.js';
import {
  type ReceiverReportBody,
  type ReportEvidence,
  type ReportFinding,
  RULES,
} from './chaos-contract.js';
import { webhookIdOf } from './chaos-message.js';
import type { Delivery, DeliveryAttempt } from './deliveries-store.js';
import type { WebhookEndpointRecord } from './records.js';

type Rule = (typeof RULES)[number];
type Verdict = ReportEvidence['verdict'];

const DESCRIPTIONS: Record<Rule, string> = {
  genuine: 'A real delivery (well signed, fresh) is accepted with a 2xx.',
  bad_signature: 'A forged delivery (signed with another secret) is refused with a 4xx.',
  stale_timestamp: 'A delivery whose webhook-timestamp is 10 minutes old is refused with a 4xx.',
  duplicate: 'An event delivered again with the same webhook-id is accepted again with a 2xx.',
  unknown_type:
    'An event of a type the receiver does not know is accepted (and ignored) with a 2xx.',
  out_of_order: 'An event held back behind a later one is accepted with a 2xx.',
};

/** Evidence entries kept per finding. */
const EVIDENCE_LIMIT = 20;

/** The verdict on one answer: its status class against the one expected; no answer judges nothing. */
function judge(statusCode: number | null, expected: '2xx' | '4xx'): Verdict {
  if (statusCode === null) return 'not_judged';
  return Math.floor(statusCode / 100) === Number(expected[0]) ? 'pass' : 'fail';
}

function evidence(d: Delivery, a: DeliveryAttempt | undefined, verdict: Verdict): ReportEvidence {
  return {
    delivery_id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    webhook_id: webhookIdOf(d.eventId, d.chaos),
    chaos: d.chaos as ReportEvidence['chaos'],
    series: a?.series ?? null,
    number: a?.number ?? null,
    at: a ? toTimestamp(a.at) : null,
    wall_at: a ? toTimestamp(a.wallAt) : null,
    status_code: a?.statusCode ?? null,
    error: a?.error ?? (a ? null : 'not_sent'),
    verdict,
  };
}

/**
 * What a delivery gives its rule: each answered attempt of an extra one; for a real one (retried
 * until accepted), its first accepted attempt, else its first refused one, else nothing judged.
 */
function judgedItems(d: Delivery): ReportEvidence[] {
  const expected = expectedAnswer(d.chaos);
  if (isExtra(d.chaos)) {
    if (d.attempts.length === 0) return [evidence(d, undefined, 'not_judged')];
    return d.attempts.map((a) => evidence(d, a, judge(a.statusCode, expected)));
  }
  const answered = d.attempts.filter((a) => a.statusCode !== null);
  const chosen =
    answered.find((a) => judge(a.statusCode, expected) === 'pass') ??
    answered[0] ??
    d.attempts.at(-1);
  return [evidence(d, chosen, judge(chosen?.statusCode ?? null, expected))];
}

const ORDER: Record<Verdict, number> = { fail: 0, pass: 1, not_judged: 2 };

function finding(rule: Rule, items: ReportEvidence[]): ReportFinding {
  const passed = items.filter((i) => i.verdict === 'pass').length;
  const failed = items.filter((i) => i.verdict === 'fail').length;
  const verdict: Verdict = failed > 0 ? 'fail' : passed > 0 ? 'pass' : 'not_judged';
  const sorted = [...items].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict]);
  return {
    rule,
    verdict,
    expected: expectedAnswer(rule === 'genuine' ? null : rule),
    description: DESCRIPTIONS[rule],
    judged: passed + failed,
    passed,
    failed,
    evidence: sorted.slice(0, EVIDENCE_LIMIT),
  };
}

/**
 * The report of `endpoint` over its deliveries (oldest first).
 * @example receiverReport(endpoint, deliveriesOf(deps, endpoint.id))
 */
export function receiverReport(
  endpoint: WebhookEndpointRecord,
  deliveries: readonly Delivery[],
): ReceiverReportBody {
  const byRule = new Map<Rule, ReportEvidence[]>(RULES.map((r) => [r, []]));
  for (const d of deliveries)
    byRule.get((d.chaos as Rule | null) ?? 'genuine')!.push(...judgedItems(d));
  const findings = RULES.map((rule) => finding(rule, byRule.get(rule)!));
  const verdict: Verdict = findings.some((f) => f.verdict === 'fail')
    ? 'fail'
    : findings.some((f) => f.verdict === 'pass')
      ? 'pass'
      : 'not_judged';
  return {
    object: 'receiver_report',
    endpoint_id: endpoint.id,
    account_id: endpoint.accountId,
    url: endpoint.url,
    chaos: endpoint.chaos,
    verdict,
    findings,
  };
}

/** Every delivery kept for the endpoint, oldest first. */
export function deliveriesOf(deps: Deps, endpointId: string): Delivery[] {
  const all: Delivery[] = [];
  for (let after: string | undefined; ; ) {
    const page = deps.webhooks.list({ endpoint: endpointId, after, limit: 1000 });
    all.push(...page.data);
    if (!page.hasMore) return all;
    after = page.data.at(-1)!.id;
  }
}

/**
 * The reports of the account's endpoints that have chaos (deleted ones left out), oldest first:
 * what `svc-emulator grade` adds for the graded account.
 * @example receiverReportsOf(deps, 'acct_00000000000000000000000001')
 */
export function receiverReportsOf(deps: Deps, accountId: string): ReceiverReportBody[] {
  return deps.store.webhookEndpoints
    .ofAccount(accountId)
    .filter((e) => e.chaos !== null)
    .map((e) => receiverReport(e, deliveriesOf(deps, e.id)));
}
