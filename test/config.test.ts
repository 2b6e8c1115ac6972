import { expect, test } from 'vitest';
import { ConfigError, helpText, parseConfig } from '../src/config.js';

test('defaults serve on 127.0.0.1:8710 with an in-memory database and realtime clocks', () => {
  expect(parseConfig([], {})).toEqual({
    port: 8710,
    host: '127.0.0.1',
    db: ':memory:',
    seed: '0',
    seedGiven: false,
    scenario: 'default',
    scenariosDir: null,
    snapshot: null,
    snapshotLimit: 100,
    snapshotSpaceBytes: 1024 * 1024 * 1024,
    clock: 'realtime',
    controlToken: null,
    controlAllowOrigins: [],
    cors: [],
    allowedHosts: [],
    strictVersions: false,
    journalSize: 10000,
    strict: false,
    control: true,
    webhooks: true,
    webhookHistory: 10000,
    webhookTimestamps: 'wall',
    webhookRetrySchedule: [0, 5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000],
    webhookTimeoutMs: 10000,
    settleSlice: 2000,
    settleThreads: null,
    headersTimeoutMs: 20000,
    requestTimeoutMs: 60000,
    coverageReport: null,
    proxy: null,
    record: null,
    help: false,
    version: false,
  });
});

test('every flag has an EMULATOR_ variable, and a flag wins over its variable', () => {
  const env = {
    EMULATOR_PORT: '9000',
    EMULATOR_HOST: '0.0.0.0',
    EMULATOR_DB: '/tmp/x.db',
    EMULATOR_SEED: 'abc',
    EMULATOR_SCENARIO: 'rate-limited',
    EMULATOR_CLOCK: 'scaled:60',
    EMULATOR_CONTROL_TOKEN: 'tok',
    EMULATOR_STRICT_VERSIONS: 'true',
    EMULATOR_STRICT: '1',
    EMULATOR_NO_CONTROL: 'true',
    EMULATOR_NO_WEBHOOKS: '1',
  };
  expect(parseConfig([], env)).toMatchObject({
    port: 9000,
    host: '0.0.0.0',
    db: '/tmp/x.db',
    seed: 'abc',
    scenario: 'rate-limited',
    clock: 'scaled:60',
    controlToken: 'tok',
    strictVersions: true,
    strict: true,
    control: false,
    webhooks: false,
  });
  expect(parseConfig(['--no-webhooks'], {}).webhooks).toBe(false);
  expect(parseConfig(['--port', '9100', '--clock', 'manual'], env)).toMatchObject({
    port: 9100,
    clock: 'manual',
  });
});

test('PORT is honoured after EMULATOR_PORT', () => {
  expect(parseConfig([], { PORT: '4010' }).port).toBe(4010);
  expect(parseConfig([], { PORT: '4010', EMULATOR_PORT: '5000' }).port).toBe(5000);
});

test('bad values name the flag and its variable', () => {
  expect(() => parseConfig(['--port', 'eighty'], {})).toThrow(
    /Invalid --port \(or EMULATOR_PORT\) 'eighty'/,
  );
  expect(() => parseConfig([], { EMULATOR_CLOCK: 'fast' })).toThrow(/--clock.*EMULATOR_CLOCK/);
  expect(() => parseConfig(['--port', '70000'], {})).toThrow(ConfigError);
  expect(() => parseConfig(['--bogus'], {})).toThrow(/--help/);
  expect(() => parseConfig([], { EMULATOR_STRICT: 'yes' })).toThrow(/--strict /);
});

test('--webhook-history and --webhook-timestamps come from flags or their variables, validated', () => {
  expect(parseConfig(['--webhook-history', '0'], {}).webhookHistory).toBe(0);
  expect(parseConfig([], { EMULATOR_WEBHOOK_TIMESTAMPS: 'virtual' }).webhookTimestamps).toBe(
    'virtual',
  );
  expect(() => parseConfig(['--webhook-history', '-1'], {})).toThrow(/--webhook-history/);
  expect(() => parseConfig(['--webhook-timestamps', 'now'], {})).toThrow(/--webhook-timestamps/);
});

test('--headers-timeout and --request-timeout take durations or 0 (none), from flags or variables', () => {
  expect(parseConfig(['--headers-timeout', '5s'], {}).headersTimeoutMs).toBe(5000);
  expect(parseConfig([], { EMULATOR_REQUEST_TIMEOUT: '0' }).requestTimeoutMs).toBe(0);
  expect(parseConfig([], { EMULATOR_REQUEST_TIMEOUT: '2m' }).requestTimeoutMs).toBe(120_000);
  const env = { EMULATOR_REQUEST_TIMEOUT: '2m' };
  expect(parseConfig(['--request-timeout', '30s'], env).requestTimeoutMs).toBe(30_000);
  expect(() => parseConfig(['--headers-timeout', 'soon'], {})).toThrow(
    /--headers-timeout \(or EMULATOR_HEADERS_TIMEOUT\)/,
  );
  expect(() => parseConfig(['--request-timeout', '2d'], {})).toThrow(/--request-timeout/);
});

test('--version and -v ask for the version; --help lists both', () => {
  expect(parseConfig(['--version'], {}).version).toBe(true);
  expect(parseConfig(['-v'], {}).version).toBe(true);
  expect(helpText()).toMatch(/-v, --version +print the version and exit/);
});

test('--snapshot (EMULATOR_SNAPSHOT) names a file; the seed counts as given only when set', () => {
  expect(parseConfig(['--snapshot', 'base.snapshot.json'], {})).toMatchObject({
    snapshot: 'base.snapshot.json',
    seedGiven: false,
  });
  expect(parseConfig([], { EMULATOR_SNAPSHOT: 'w.json', EMULATOR_SEED: '0' })).toMatchObject({
    snapshot: 'w.json',
    seed: '0',
    seedGiven: true,
  });
});

test('--proxy takes an http(s) URL, --record a folder and needs --proxy', () => {
  expect(
    parseConfig(['--proxy', 'https://api.example.com', '--record', 'cassette'], {}),
  ).toMatchObject({ proxy: 'https://api.example.com', record: 'cassette' });
  expect(parseConfig([], { EMULATOR_PROXY: 'http://127.0.0.1:9000' }).proxy).toBe(
    'http://127.0.0.1:9000',
  );
  expect(() => parseConfig(['--proxy', 'ftp://x'], {})).toThrow(/--proxy \(or EMULATOR_PROXY\)/);
  expect(() => parseConfig(['--record', 'cassette'], {})).toThrow(/--record .*needs --proxy/);
  expect(helpText()).toMatch(/svc-emulator verify --target URL --key KEY/);
});

test('--settle-threads takes a count from 0, from its flag or variable; unset, the default', () => {
  expect(parseConfig(['--settle-threads', '0'], {}).settleThreads).toBe(0);
  expect(parseConfig([], { EMULATOR_SETTLE_THREADS: '2' }).settleThreads).toBe(2);
  expect(parseConfig([], {}).settleThreads).toBeNull();
  expect(() => parseConfig(['--settle-threads', '-1'], {})).toThrow(/--settle-threads/);
  expect(() => parseConfig(['--settle-threads', 'two'], {})).toThrow(/EMULATOR_SETTLE_THREADS/);
});

test('--snapshot-limit and --snapshot-space (in MiB) bound the snapshots', () => {
  const env = { EMULATOR_SNAPSHOT_LIMIT: '5', EMULATOR_SNAPSHOT_SPACE: '64' };
  expect(parseConfig([], env)).toMatchObject({
    snapshotLimit: 5,
    snapshotSpaceBytes: 64 * 1048576,
  });
  expect(parseConfig(['--snapshot-limit', '7'], env)).toMatchObject({ snapshotLimit: 7 });
  for (const [flag, value] of [
    ['--snapshot-limit', '0'],
    ['--snapshot-space', '1.5'],
    ['--snapshot-space', 'big'],
  ])
    expect(() => parseConfig([flag!, value!], {})).toThrow(ConfigError);
});
