import { parseArgs } from 'node:util';
import { z } from 'zod';
import { FLAGS } from './config-flags.js';
import { parseClockMode } from './core/clock.js';
import { parseDuration, parseDurations } from './core/duration.js';

export { FLAGS } from './config-flags.js';

/** The longest wait `--webhook-retry-schedule` takes between two attempts. */
const MAX_RETRY_DELAY_MS = 30 * 86_400_000;

type Flag = keyof typeof FLAGS;

const bool = (name: string) =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .transform((v) => v === 'true' || v === '1')
    .describe(name);

/** A comma-separated value each of whose entries, trimmed, matches `entry`. */
const commaList = (entry: RegExp, message: string) =>
  z.string().refine((v) => v.split(',').every((e) => entry.test(e.trim())), message);

/** `--control-allow-origin` and `--cors`: web origins, comma-separated, or `*`. */
const originList = () =>
  commaList(
    /^(\*|https?:\/\/[^/\s]+\/?)?$/i,
    'expected origins like http://localhost:3000, comma-separated, or *',
  );

/** `--headers-timeout` and `--request-timeout`: 0 (none) or up to a day. */
const serverTimeout = () =>
  z.string().refine((v) => {
    const ms = parseDuration(v);
    return ms !== undefined && ms <= 86_400_000;
  }, 'expected 0 (none) or a duration up to 1d, like 20s or 2m');

const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535),
  host: z.string().min(1),
  db: z.string().min(1),
  seed: z.string().min(1).max(200),
  scenario: z
    .string()
    .regex(
      /^([A-Za-z0-9][A-Za-z0-9_-]*|.+\.(json|ya?ml))$/i,
      'a scenario name (letters, digits, - and _) or a path to a .json, .yaml or .yml file',
    ),
  'scenarios-dir': z.string(),
  snapshot: z.string(),
  'snapshot-limit': z.coerce.number().int().min(1).max(10_000),
  'snapshot-space': z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024),
  clock: z
    .string()
    .refine((v) => parseClockMode(v) !== undefined, 'expected manual, realtime or scaled:N'),
  'control-token': z.string(),
  'control-allow-origin': originList(),
  cors: originList(),
  'allowed-hosts': commaList(
    /^(\*|\.?[a-z0-9_.:[\]-]*)$/i,
    'expected host names like emulator or .example.test, comma-separated, or *',
  ),
  'strict-versions': bool('strict-versions'),
  strict: bool('strict'),
  'no-control': bool('no-control'),
  'no-webhooks': bool('no-webhooks'),
  'journal-size': z.coerce.number().int().min(0).max(1_000_000),
  'webhook-history': z.coerce.number().int().min(0).max(10_000_000),
  'webhook-retry-schedule': z.string().refine((v) => {
    const all = parseDurations(v);
    return all !== undefined && all.length <= 100 && all.every((ms) => ms <= MAX_RETRY_DELAY_MS);
  }, 'expected 1 to 100 comma-separated durations of at most 30d, like 0,5s,5m,2h (a bare number is seconds)'),
  'webhook-timeout': z.string().refine((v) => {
    const ms = parseDuration(v);
    return ms !== undefined && ms >= 1 && ms <= 600_000;
  }, 'expected a duration from 1ms to 10m, like 10s or 500ms'),
  'webhook-timestamps': z.enum(['wall', 'virtual']),
  'settle-slice': z.coerce.number().int().min(1).max(1_000_000),
  'settle-threads': z.union([z.literal(''), z.coerce.number().int().min(0).max(64)]),
  'headers-timeout': serverTimeout(),
  'request-timeout': serverTimeout(),
  'coverage-report': z.string(),
  proxy: z.union([
    z.literal(''),
    z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }),
  ]),
  record: z.string(),
});

/** The command line read: flags, else `EMULATOR_*` variables, else defaults. */
export type CliConfig = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {}

/**
 * Flags win over `EMULATOR_*` variables, which win over defaults. `PORT` is honoured after
 * `EMULATOR_PORT`, as container platforms set it.
 * @example parseConfig(['--port', '9000'], {}).port // 9000
 */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv) {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    };
    // The flags that default to false are switches: `--strict`, not `--strict true`.
    for (const [flag, spec] of Object.entries(FLAGS))
      options[flag] = { type: spec.default === 'false' ? 'boolean' : 'string' };
    values = parseArgs({ args: argv, options }).values as typeof values;
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}. Run with --help for the flags.`);
  }
  const raw: Record<string, string> = {};
  for (const [flag, spec] of Object.entries(FLAGS) as [Flag, (typeof FLAGS)[Flag]][]) {
    const cli = values[flag];
    const fromEnv = env[spec.env] ?? (flag === 'port' ? env.PORT : undefined);
    raw[flag] = cli === undefined ? (fromEnv ?? spec.default) : String(cli);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = String(issue.path[0]) as Flag;
    throw new ConfigError(
      `Invalid --${flag} (or ${FLAGS[flag].env}) '${raw[flag]}': ${issue.message}.`,
    );
  }
  const c = parsed.data;
  if (c.record && !c.proxy)
    throw new ConfigError(
      '--record (or EMULATOR_RECORD) needs --proxy: it records what the proxy forwards.',
    );
  return {
    port: c.port,
    host: c.host,
    db: c.db,
    seed: c.seed,
    /** Whether `--seed` or `EMULATOR_SEED` named the seed: else a `--snapshot` file's is used. */
    seedGiven: values.seed !== undefined || env.EMULATOR_SEED !== undefined,
    scenario: c.scenario,
    /** `--scenarios-dir`: a folder of the user's scenario files, looked in before the shipped ones. */
    scenariosDir: c['scenarios-dir'] || null,
    /** `--snapshot FILE`: the snapshot the world starts from. */
    snapshot: c.snapshot || null,
    /** `--snapshot-limit`: the most snapshots kept at once. */
    snapshotLimit: c['snapshot-limit'],
    /** `--snapshot-space`: the most bytes (given in MiB) the snapshots' copies take together. */
    snapshotSpaceBytes: c['snapshot-space'] * 1024 * 1024,
    clock: parseClockMode(c.clock)!,
    controlToken: c['control-token'] || null,
    /** Origins besides the emulator's own allowed to call /_control from a browser (`*`: all). */
    controlAllowOrigins: origins(c['control-allow-origin']),
    /** `--cors`: origins a browser may call the product API from (`*`: all); none by default. */
    cors: origins(c.cors),
    /** `--allowed-hosts`: Host names besides loopback and `--host` that /_control and /docs answer. */
    allowedHosts: list(c['allowed-hosts']),
    strictVersions: c['strict-versions'],
    strict: c.strict,
    control: !c['no-control'],
    journalSize: c['journal-size'],
    webhooks: !c['no-webhooks'],
    webhookHistory: c['webhook-history'],
    webhookTimestamps: c['webhook-timestamps'],
    /** Virtual ms before each delivery attempt (`--webhook-retry-schedule`). */
    webhookRetrySchedule: parseDurations(c['webhook-retry-schedule'])!,
    /** Wall ms one attempt may take (`--webhook-timeout`). */
    webhookTimeoutMs: parseDuration(c['webhook-timeout'])!,
    settleSlice: c['settle-slice'],
    /** `--settle-threads N`: the settle pool's size; null: the default (settle-pool.ts). */
    settleThreads: c['settle-threads'] === '' ? null : c['settle-threads'],
    /** Wall ms to send a request's headers, and the whole request (0: none); node-server.ts. */
    headersTimeoutMs: parseDuration(c['headers-timeout'])!,
    requestTimeoutMs: parseDuration(c['request-timeout'])!,
    /** `--coverage-report FILE`: where the report goes at shutdown (JSON, and Markdown beside it). */
    coverageReport: c['coverage-report'] || null,
    /** `--proxy URL`: serve /v1 by forwarding to this service (src/tools/verify/proxy.ts). */
    proxy: c.proxy || null,
    /** `--record DIR`: with `--proxy`, the folder of the cassette. */
    record: c.record || null,
    help: values.help === true,
    /** `--version` (`-v`): print the package version and exit. */
    version: values.version === true,
  };
}

/** A comma-separated value's entries, trimmed and lower-cased, the empty ones dropped. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
}

/** A list of web origins as a browser sends them in `Origin`: without a trailing slash. */
function origins(value: string): string[] {
  return list(value).map((o) => o.replace(/\/$/, ''));
}

export function helpText(): string {
  const entries = Object.entries(FLAGS);
  const flagWidth = Math.max(...entries.map(([flag]) => flag.length)) + 2;
  const envWidth = Math.max(...entries.map(([, spec]) => spec.env.length));
  const row = (flag: string, env: string, meaning: string) =>
    `  ${flag.padEnd(flagWidth)} ${env.padEnd(envWidth)} ${meaning}`;
  const lines = entries.map(([flag, spec]) =>
    row(`--${flag}`, spec.env, `${spec.help} (default: ${spec.default || 'none'})`),
  );
  const head = row('flag', 'environment variable', 'meaning');
  const extra = [
    row('-h, --help', '', 'print this text and exit'),
    row('-v, --version', '', 'print the version and exit'),
  ];
  const subcommands =
    '  svc-emulator verify --target URL --key KEY [flags]   check a service against the contract\n' +
    '  svc-emulator drift --cassette DIR [flags]            replay a recorded cassette against the emulator\n' +
    '  (each takes --help; docs/verify.md)\n';
  return `svc-emulator: a stateful emulator of the Robot Policy Platform API\n\nUsage: svc-emulator [flags]\n${subcommands}\n${head}\n${lines.join('\n')}\n\n${extra.join('\n')}\n`;
}
