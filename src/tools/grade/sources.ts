/**
 * Where `svc-emulator grade` finds its findings. Each source reads one report of the control API
 * and answers its findings in one shape, so another report becomes one more entry of
 * `GRADE_SOURCES`: the receiver report of issue 39 (`GET /_control/webhook_endpoints/{id}/
 * receiver_report`, one subject per endpoint of the account) is meant to join as such a source.
 */
import type { ControlClient } from '../harness/control-client.js';
import type { ClientReport } from '../harness/control-types.js';

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
  /** What it says of itself in the summary line: `2 keys, 14 calls`. */
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

/** Every source, in the order the output lists their findings. */
export const GRADE_SOURCES: readonly GradeSource[] = [clientReportSource];
