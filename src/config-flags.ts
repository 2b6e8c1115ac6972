/** The emulator's command-line flags: each one's environment variable, default and meaning. */
import { formatDuration } from './core/duration.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './http/node-server.js';

/** Every CLI flag, its environment variable and its default (docs/configuration.md). */
export const FLAGS = {
  port: { env: 'EMULATOR_PORT', default: '8710', help: 'TCP port to listen on' },
  host: { env: 'EMULATOR_HOST', default: '127.0.0.1', help: 'address to bind (0.0.0.0 in Docker)' },
  db: { env: 'EMULATOR_DB', default: ':memory:', help: 'SQLite file (WAL mode) or :memory:' },
  seed: { env: 'EMULATOR_SEED', default: '0', help: 'seed of ids, secrets and draws' },
  scenario: {
    env: 'EMULATOR_SCENARIO',
    default: 'default',
    help: 'scenario loaded at start: a name (shipped, or in --scenarios-dir) or a path to a .json, .yaml or .yml file',
  },
  'scenarios-dir': {
    env: 'EMULATOR_SCENARIOS_DIR',
    default: '',
    help: 'a folder of scenario files (<name>.json, .yaml, .yml) loadable by name, before the shipped ones',
  },
  snapshot: {
    env: 'EMULATOR_SNAPSHOT',
    default: '',
    help: 'start from this snapshot file (GET /_control/snapshots/{name}/download), with its seed',
  },
  'snapshot-limit': {
    env: 'EMULATOR_SNAPSHOT_LIMIT',
    default: '100',
    help: 'most snapshots kept at once (POST /_control/snapshots)',
  },
  'snapshot-space': {
    env: 'EMULATOR_SNAPSHOT_SPACE',
    default: '1024',
    help: "MiB the snapshots' copies may take together, in a temporary file",
  },
  clock: {
    env: 'EMULATOR_CLOCK',
    default: 'realtime',
    help: 'clock mode of new accounts: manual, realtime or scaled:N',
  },
  'control-token': {
    env: 'EMULATOR_CONTROL_TOKEN',
    default: '',
    help: 'require X-Control-Token on /_control',
  },
  'control-allow-origin': {
    env: 'EMULATOR_CONTROL_ALLOW_ORIGIN',
    default: '',
    help: 'other origins (comma-separated, or *) a browser may call /_control from',
  },
  cors: {
    env: 'EMULATOR_CORS',
    default: '',
    help: 'web origins (comma-separated, or *) a browser may call /v1 from',
  },
  'allowed-hosts': {
    env: 'EMULATOR_ALLOWED_HOSTS',
    default: '',
    help: 'other Host names (comma-separated, .suffix, or *) /_control and /docs answer, besides loopback and --host',
  },
  'strict-versions': {
    env: 'EMULATOR_STRICT_VERSIONS',
    default: 'false',
    help: 'apply the per-operation Service-Version lists',
  },
  strict: {
    env: 'EMULATOR_STRICT',
    default: 'false',
    help: 'serve only the documented operations (and /_control)',
  },
  'no-control': { env: 'EMULATOR_NO_CONTROL', default: 'false', help: 'do not serve /_control' },
  'no-webhooks': {
    env: 'EMULATOR_NO_WEBHOOKS',
    default: 'false',
    help: 'record events but send no webhook deliveries',
  },
  'webhook-history': {
    env: 'EMULATOR_WEBHOOK_HISTORY',
    default: '10000',
    help: 'delivered or failed webhook deliveries kept, oldest dropped first (0: none)',
  },
  'webhook-retry-schedule': {
    env: 'EMULATOR_WEBHOOK_RETRY_SCHEDULE',
    default: '0,5s,5m,30m,2h,5h,10h,10h',
    help: "virtual delay of each delivery attempt on the account's clock: the first after its event, each next after a failure",
  },
  'webhook-timeout': {
    env: 'EMULATOR_WEBHOOK_TIMEOUT',
    default: '10s',
    help: 'wall time one delivery attempt may take before it fails',
  },
  'webhook-timestamps': {
    env: 'EMULATOR_WEBHOOK_TIMESTAMPS',
    default: 'wall',
    help: 'webhook-timestamp header: wall (receivers check it) or virtual',
  },
  'journal-size': {
    env: 'EMULATOR_JOURNAL_SIZE',
    default: '10000',
    help: 'requests the journal keeps, oldest dropped first (0: none)',
  },
  'coverage-report': {
    env: 'EMULATOR_COVERAGE_REPORT',
    default: '',
    help: 'at shutdown, write the coverage report as JSON to this file and as Markdown beside it',
  },
  'settle-slice': {
    env: 'EMULATOR_SETTLE_SLICE',
    default: '2000',
    help: "most work one settle window applies before serving others: 1 a transition, 1 plus its steps a run's end",
  },
  'settle-threads': {
    env: 'EMULATOR_SETTLE_THREADS',
    default: '',
    help: 'worker threads for the ends and archives of long runs (0: on the event loop; default the cores but one, 1 or 2)',
  },
  'headers-timeout': {
    env: 'EMULATOR_HEADERS_TIMEOUT',
    default: formatDuration(DEFAULT_HEADERS_TIMEOUT_MS),
    help: "wall time a client has to send a request's headers, else 408 and the connection closed (0: none)",
  },
  'request-timeout': {
    env: 'EMULATOR_REQUEST_TIMEOUT',
    default: formatDuration(DEFAULT_REQUEST_TIMEOUT_MS),
    help: 'wall time a client has to send a whole request, body included (0: none); answers are not bound',
  },
  proxy: {
    env: 'EMULATOR_PROXY',
    default: '',
    help: 'forward /v1 to this service, flagging contract violations (docs/verify.md)',
  },
  record: {
    env: 'EMULATOR_RECORD',
    default: '',
    help: 'with --proxy: record each exchange, secrets masked, in this folder',
  },
} as const;
