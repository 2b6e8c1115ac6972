/**
 * The flags of `svc-emulator grade` (docs/error-handling.md, "Grade in CI"). The control token may
 * come from `EMULATOR_CONTROL_TOKEN` instead, the variable the emulator itself reads.
 */
import { parseArgs } from 'node:util';

/** A flag is missing or bad: exit 2 with this message. */
export class GradeArgsError extends Error {}

export const GRADE_FLAGS = {
  url: { help: "the emulator's origin, e.g. http://localhost:4010 (required)" },
  account: { help: 'the account whose traffic is graded (required)' },
  key: { help: "grade only this API key's calls (its id, key_...)" },
  'control-token': { help: "the emulator's --control-token (or EMULATOR_CONTROL_TOKEN)" },
  report: { help: 'also write the grade to FILE.json and FILE.md' },
} as const;

export interface GradeArgs {
  url: string;
  account: string;
  key: string | undefined;
  controlToken: string | undefined;
  /** FILE without its `.json` or `.md` ending; undefined: no file. */
  report: string | undefined;
}

function origin(raw: string | undefined): string {
  if (!raw) throw new GradeArgsError('--url is required, e.g. --url http://localhost:4010');
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new GradeArgsError(`Invalid --url '${raw}': expected an http:// or https:// URL.`);
  }
}

/** The flags read; `{help: true}` for `--help`; throws `GradeArgsError` for a bad one. */
export function parseGradeArgs(argv: string[], env: NodeJS.ProcessEnv): GradeArgs | { help: true } {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(
      Object.keys(GRADE_FLAGS).map((flag) => [flag, { type: 'string' as const }]),
    );
    values = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } } }).values;
  } catch (err) {
    throw new GradeArgsError(`${(err as Error).message}. Run with --help for the flags.`);
  }
  if (values.help) return { help: true };
  const url = origin(values.url as string | undefined);
  const account = values.account as string | undefined;
  if (!account) throw new GradeArgsError('--account is required, e.g. --account acct_...');
  const token = (values['control-token'] as string | undefined) || env.EMULATOR_CONTROL_TOKEN;
  const report = values.report as string | undefined;
  return {
    url,
    account,
    key: (values.key as string | undefined) || undefined,
    controlToken: token || undefined,
    report: report ? report.replace(/\.(json|md)$/, '') : undefined,
  };
}

export function gradeHelp(): string {
  const width = Math.max(...Object.keys(GRADE_FLAGS).map((f) => f.length)) + 4;
  const rows = Object.entries(GRADE_FLAGS).map(
    ([flag, spec]) => `  ${`--${flag}`.padEnd(width)} ${spec.help}`,
  );
  return (
    'Usage: svc-emulator grade --url URL --account ID [--control-token T] [--report FILE]\n\n' +
    "Grades a client's error handling from its traffic in a running emulator's journal\n" +
    '(GET /_control/client_report; docs/error-handling.md), and the webhook receivers of the\n' +
    "account's endpoints that have receiver chaos (GET /_control/webhook_endpoints/{id}/\n" +
    'receiver_report; docs/runtime.md "Receiver chaos").\n\n' +
    `${rows.join('\n')}\n\n` +
    'Exit status: 0 every finding passes (or is not judged), 1 one fails, 2 it could not run.\n'
  );
}
