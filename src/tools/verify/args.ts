/**
 * The flags of `svc-emulator verify` and `svc-emulator drift` (docs/configuration.md,
 * "Subcommands"). The keys may come from environment variables instead, which keeps them out of
 * shell history and process listings.
 */
import { parseArgs } from 'node:util';

/** A flag is missing or bad: exit 2 with this message. */
export class ArgsError extends Error {}

/** Every flag of the two subcommands, with its default and meaning (`--help`). */
export const VERIFY_FLAGS = {
  target: { default: '', help: 'origin of the service to check, e.g. https://api.example.com' },
  key: { default: '', help: 'API key for the target (or EMULATOR_VERIFY_KEY)' },
  'narrow-key': {
    default: '',
    help: 'a key lacking some scopes, for the 403 checks (or EMULATOR_VERIFY_NARROW_KEY)',
  },
  writes: {
    default: 'false',
    help: 'also create resources (and cancel, resume, delete only those)',
  },
  report: { default: 'verify-report', help: 'write the report to FILE.json and FILE.md' },
  'max-requests': { default: '400', help: 'most requests sent to the target, 1 to 100000' },
  rps: { default: '5', help: 'most requests per second, 0.1 to 1000' },
  'max-wait': { default: '300', help: 'seconds to wait for created runs to end, 0 to 86400' },
} as const;

export const DRIFT_FLAGS = {
  cassette: { default: '', help: 'folder of exchanges recorded by --proxy --record' },
  report: { default: 'drift-report', help: 'write the report to FILE.json and FILE.md' },
  key: {
    default: '',
    help: "the emulator key replayed for the recorded one (default: the scenario's first key)",
  },
  seed: { default: '0', help: 'seed of the replaying emulator' },
  scenario: { default: 'default', help: 'scenario of the replaying emulator' },
  strict: {
    default: 'false',
    help: 'the replaying emulator serves only the documented operations',
  },
  'strict-versions': { default: 'false', help: 'the replaying emulator applies the version lists' },
} as const;

type FlagTable = Record<string, { default: string; help: string }>;

function read(table: FlagTable, argv: string[]): Record<string, string | boolean> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [flag, spec] of Object.entries(table))
    options[flag] = { type: spec.default === 'false' ? 'boolean' : 'string' };
  try {
    const parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } } });
    const values = parsed.values as Record<string, string | boolean | undefined>;
    const out: Record<string, string | boolean> = {};
    for (const [flag, spec] of Object.entries(table))
      out[flag] = values[flag] ?? (spec.default === 'false' ? false : spec.default);
    out.help = values.help === true;
    return out;
  } catch (err) {
    throw new ArgsError(`${(err as Error).message}. Run with --help for the flags.`);
  }
}

function number(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    throw new ArgsError(`Invalid --${flag} '${raw}': expected a number from ${min} to ${max}.`);
  return n;
}

function origin(raw: string): string {
  if (raw === '')
    throw new ArgsError('--target is required, e.g. --target https://api.example.com');
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ArgsError(`Invalid --target '${raw}': expected an http:// or https:// URL.`);
  }
}

export function parseVerifyArgs(argv: string[], env: NodeJS.ProcessEnv) {
  const v = read(VERIFY_FLAGS, argv);
  if (v.help) return { help: true as const };
  const key = String(v.key || env.EMULATOR_VERIFY_KEY || '');
  if (key === '') throw new ArgsError('--key (or EMULATOR_VERIFY_KEY) is required');
  const narrow = String(v['narrow-key'] || env.EMULATOR_VERIFY_NARROW_KEY || '');
  const maxRequests = number('max-requests', String(v['max-requests']), 1, 100_000);
  if (!Number.isInteger(maxRequests))
    throw new ArgsError(`Invalid --max-requests '${v['max-requests']}': expected a whole number.`);
  return {
    help: false as const,
    target: origin(String(v.target)),
    key,
    narrowKey: narrow === '' ? undefined : narrow,
    writes: v.writes === true,
    report: String(v.report),
    maxRequests,
    rps: number('rps', String(v.rps), 0.1, 1000),
    maxWait: number('max-wait', String(v['max-wait']), 0, 86_400),
  };
}

export function parseDriftArgs(argv: string[]) {
  const v = read(DRIFT_FLAGS, argv);
  if (v.help) return { help: true as const };
  if (v.cassette === '') throw new ArgsError('--cassette DIR is required');
  return {
    help: false as const,
    cassette: String(v.cassette),
    report: String(v.report),
    key: v.key === '' ? undefined : String(v.key),
    seed: String(v.seed),
    scenario: String(v.scenario),
    strict: v.strict === true,
    strictVersions: v['strict-versions'] === true,
  };
}

/** `--help` of a subcommand. */
export function subcommandHelp(name: 'verify' | 'drift'): string {
  const table: FlagTable = name === 'verify' ? VERIFY_FLAGS : DRIFT_FLAGS;
  const width = Math.max(...Object.keys(table).map((f) => f.length)) + 4;
  const rows = Object.entries(table).map(
    ([flag, spec]) =>
      `  ${`--${flag}`.padEnd(width)} ${spec.help}${spec.default && spec.default !== 'false' ? ` (default: ${spec.default})` : ''}`,
  );
  const usage =
    name === 'verify'
      ? 'svc-emulator verify --target URL --key KEY [flags]'
      : 'svc-emulator drift --cassette DIR [flags]';
  return `Usage: ${usage}\n\n${rows.join('\n')}\n\nExit status: 0 nothing differs, 1 something differs, 2 it could not run.\n`;
}
