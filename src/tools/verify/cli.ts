/**
 * `svc-emulator verify ...` and `svc-emulator drift ...`: flags in, a report out, and the exit
 * status: 0 nothing differs, 1 something differs, 2 it could not run.
 */
import { ArgsError, parseDriftArgs, parseVerifyArgs, subcommandHelp } from './args.js';
import { CassetteError } from './cassette.js';
import { emulatorContract } from './contract.js';
import { DriftError, runDrift } from './drift.js';
import { SecretSet } from './mask.js';
import { writeReport } from './report.js';
import type { Report } from './report-types.js';
import { runVerify, VerifyError } from './run-verify.js';

export const SUBCOMMANDS = ['verify', 'drift'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

function finish(name: Subcommand, report: Report, files: { json: string; markdown: string }) {
  const s = report.summary;
  console.log(
    `svc-emulator ${name}: ${report.requests} requests, ${s.checks} checks, ` +
      `${report.differences.length} differences in ${s.differing_checks} checks, ${s.not_run} not run`,
  );
  for (const note of report.notes) console.log(`  note: ${note}`);
  console.log(`  report: ${files.json} and ${files.markdown}`);
  return report.differences.length === 0 ? 0 : 1;
}

async function verify(argv: string[]): Promise<number> {
  const args = parseVerifyArgs(argv, process.env);
  if (args.help) {
    process.stdout.write(subcommandHelp('verify'));
    return 0;
  }
  const { report, session } = await runVerify(args);
  return finish('verify', report, writeReport(args.report, report, session.secrets));
}

async function drift(argv: string[]): Promise<number> {
  const args = parseDriftArgs(argv);
  if (args.help) {
    process.stdout.write(subcommandHelp('drift'));
    return 0;
  }
  const report = await runDrift(args, await emulatorContract({ strict: args.strict }));
  const secrets = new SecretSet();
  secrets.add(args.key);
  return finish('drift', report, writeReport(args.report, report, secrets));
}

/** Runs a subcommand; answers its exit status. */
export async function runSubcommand(name: Subcommand, argv: string[]): Promise<number> {
  try {
    return await (name === 'verify' ? verify(argv) : drift(argv));
  } catch (err) {
    const known = [ArgsError, VerifyError, CassetteError, DriftError].some((E) => err instanceof E);
    console.error(`svc-emulator ${name}: ${known ? (err as Error).message : String(err)}`);
    return 2;
  }
}
