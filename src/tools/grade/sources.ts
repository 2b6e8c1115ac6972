/**
 * Where `svc-emulator grade` finds its findings. Each source reads one report of the control API
 * and answers its findings in one shape, so another report becomes one more entry of
 * `GRADE_SOURCES`: the client report (issue 38, one subject per API key) and the receiver report
 * (issue 39, one subject per webhook endpoint of the account that receiver chaos put to the test).
 */
import type { ControlClient } from '../harness/control-client.js';
import type { ClientReport, ReceiverReport } from '../harness/control-types.js';

export type GradeVerdict = 'pass' | 'fail' | 'not_judged' | 'info';

/** One finding of one source on one subject (a key, an endpoint), with its evidence as lines. */
export interface GradeFinding {
  source: string;
  /** What was judged, as a sentence names it: `key key_...`. */
  subject: string;
  rule: string;
  title: string;
  verdict: GradeVerdict;
  summary: string;
  /** One line per case that shows it, failing ones first. */
  evidence: string[];
}

export interface SourceResult {
  findings: GradeFinding[];
  /** How many subjects it judged (keys, endpoints): none in every source is nothing to grade. */
  subjects: number;
  /** What it says of itself in the summary line: `2 keys, 14 calls`; '' for nothing. */
  counts: string;
  /** The report as the control API answered it, kept in FILE.json. */
  raw: unknown;
}

export interface GradeScope {
  account: string;
  key: string | undefined;
}

export interface GradeSource {
  /** Its name in the output and in FILE.json's `sources`. */
  name: string;
  /** Reads the emulator; throws (a `ControlError`, a network error) when it cannot. */
  collect(control: ControlClient, scope: GradeScope): Promise<SourceResult>;
}

type ReportCase = ClientReport['keys'][number]['findings'][number]['cases'][number];

/** `note (req_1 503 at T; req_2 201 at T)`. */
export function evidenceLine(c: ReportCase): string {
  const requests = c.requests
    .map((r) => `${r.request_id} ${r.status ?? 'no answer'} at ${r.received_at}`)
    .join('; ');
  return `${c.verdict === 'fail' ? 'fail' : c.verdict}: ${c.note} (${requests})`;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** `GET /_control/client_report`: each API key's calls judged (issue 38). */
export const clientReportSource: GradeSource = {
  name: 'client_report',
  async collect(control, scope) {
    const report = await control.clientReport(
      scope.key === undefined ? { account: scope.account } : scope,
    );
    const findings = report.keys.flatMap((k) =>
      k.findings.map(
        (f): GradeFinding => ({
          source: 'client_report',
          subject: `key ${k.key}`,
          rule: f.rule,
          title: f.title,
          verdict: f.verdict,
          summary: f.summary,
          evidence: [
            ...f.cases.map(evidenceLine),
            ...(f.cases_total > f.cases.length
              ? [`... and ${f.cases_total - f.cases.length} more`]
              : []),
          ],
        }),
      ),
    );
    const s = report.summary;
    return {
      findings,
      subjects: s.keys,
      counts: `${plural(s.keys, 'key')}, ${plural(s.calls, 'call')}`,
      raw: report,
    };
  },
};

type ReceiverFinding = ReceiverReport['findings'][number];
type ReceiverEvidence = ReceiverFinding['evidence'][number];

/** Each rule of the receiver report as a title names it. */
const RECEIVER_TITLES: Record<ReceiverFinding['rule'], string> = {
  genuine: 'Real deliveries accepted',
  bad_signature: 'Forged deliveries refused',
  stale_timestamp: 'Stale deliveries refused',
  duplicate: 'Duplicates accepted again',
  unknown_type: 'Unknown event types accepted',
  out_of_order: 'Events held back accepted',
};

/** `fail: bad_signature delivery whdl_2 of evaluation.queued evt_1 (webhook-id evt_1), attempt 1.1 at T: 204`. */
export function deliveryLine(e: ReceiverEvidence): string {
  const attempt = e.series === null ? 'not sent' : `attempt ${e.series}.${e.number} at ${e.at}`;
  const answer = e.status_code ?? e.error ?? 'no answer';
  return `${e.verdict}: ${e.chaos ?? 'real'} delivery ${e.delivery_id} of ${e.event_type} ${e.event_id} (webhook-id ${e.webhook_id}), ${attempt}: ${answer}`;
}

function receiverSummary(report: ReceiverReport, f: ReceiverFinding): string {
  if (f.verdict === 'fail')
    return `${f.failed} of ${f.judged} answered otherwise than ${f.expected}.`;
  if (f.verdict === 'pass') return `${f.passed} of ${f.judged} answered ${f.expected}.`;
  const chance = f.rule === 'genuine' ? 1 : (report.chaos?.[f.rule] ?? 0);
  return chance === 0 && f.evidence.length === 0
    ? "none sent: not in the endpoint's chaos."
    : `none answered yet (${f.expected} expected).`;
}

/** Whether receiver chaos put the endpoint to the test: it has chaos, or deliveries made by it. */
const putToTheTest = (r: ReceiverReport) =>
  r.chaos !== null || r.findings.some((f) => f.rule !== 'genuine' && f.evidence.length > 0);

/**
 * `GET /_control/webhook_endpoints/{id}/receiver_report` (issue 39) of each endpoint of the account
 * that receiver chaos put to the test, oldest first; the others are left out (their receivers were
 * not tested). The reports judge receivers, so a `--key` does not narrow them.
 */
export const receiverReportSource: GradeSource = {
  name: 'receiver_report',
  async collect(control, scope) {
    const endpoints: string[] = [];
    for (let after: string | undefined; ; ) {
      const page = await control.listWebhookEndpoints(scope.account, { after, limit: 1000 });
      endpoints.push(...page.data.map((e) => e.id));
      if (!page.has_more) break;
      after = page.data.at(-1)!.id;
    }
    const reports: ReceiverReport[] = [];
    for (const id of endpoints.reverse()) {
      const report = await control.receiverReport(id);
      if (putToTheTest(report)) reports.push(report);
    }
    const findings = reports.flatMap((r) =>
      r.findings.map(
        (f): GradeFinding => ({
          source: 'receiver_report',
          subject: `endpoint ${r.endpoint_id}`,
          rule: f.rule,
          title: RECEIVER_TITLES[f.rule],
          verdict: f.verdict,
          summary: receiverSummary(r, f),
          evidence: [
            ...f.evidence.map(deliveryLine),
            ...(f.judged > f.evidence.filter((e) => e.verdict !== 'not_judged').length
              ? [`... and more: ${f.judged} answers judged, ${f.evidence.length} shown`]
              : []),
          ],
        }),
      ),
    );
    const answers = reports.reduce((n, r) => n + r.findings.reduce((m, f) => m + f.judged, 0), 0);
    return {
      findings,
      subjects: reports.length,
      // Nothing to say when no endpoint was tested: the summary line stays the client report's.
      counts: reports.length
        ? `${plural(reports.length, 'endpoint')}, ${plural(answers, 'answer')}`
        : '',
      raw: { object: 'list', data: reports },
    };
  },
};

/** Every source, in the order the output lists their findings. */
export const GRADE_SOURCES: readonly GradeSource[] = [clientReportSource, receiverReportSource];
