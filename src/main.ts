#!/usr/bin/env node
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sweepViews } from './areas/faults/control-sweeps.js';
import { banner } from './banner.js';
import { type CliConfig, ConfigError, helpText, parseConfig } from './config.js';
import { packageVersion, SHIPPED_SCENARIOS } from './emulator.js';
import { capYoungGeneration, collectWhenIdle, exposedGc } from './heap.js';
import { createNodeServer, serverTimeouts } from './http/node-server.js';
import { writeCoverageReport } from './tools/coverage/file.js';
import { createEmulator, type Emulator } from './tools/emulator.js';
import { runGradeCommand } from './tools/grade/cli.js';
import { runReplay } from './tools/replay/cli.js';
import { runSubcommand, SUBCOMMANDS, type Subcommand } from './tools/verify/cli.js';
import { startProxy } from './tools/verify/proxy-server.js';
import { DataFileError } from './world/load-scenario.js';

/** `--coverage-report FILE` at shutdown; a failure to write is said, not thrown. */
function writeReport(emulator: Emulator, file: string): void {
  try {
    const out = writeCoverageReport(file, emulator.coverage(), sweepViews(emulator.deps));
    console.log(`svc-emulator: coverage report written to ${out.json} and ${out.markdown}`);
  } catch (err) {
    console.error(`svc-emulator: cannot write the coverage report: ${(err as Error).message}`);
  }
}

/** The command line and environment, read; a bad one exits 2 with what is wrong. */
function readConfig(): CliConfig {
  try {
    return parseConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`svc-emulator: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

/** The emulator the configuration asks for; one that cannot start exits 2 saying why. */
function openEmulator(config: CliConfig): Emulator {
  try {
    return createEmulator({
      db: config.db,
      // A snapshot brings its seed; the default seed does not override it.
      seed: (config.snapshot || config.bundle) && !config.seedGiven ? undefined : config.seed,
      scenario: config.scenario,
      ...(config.scenariosDir ? { scenariosDir: [config.scenariosDir, SHIPPED_SCENARIOS] } : {}),
      ...(config.snapshot ? { snapshot: config.snapshot } : {}),
      ...(config.bundle ? { bundle: config.bundle } : {}),
      bundleRecord: config.bundleRecord,
      bundleLimitBytes: config.bundleLimitBytes,
      snapshotLimit: config.snapshotLimit,
      snapshotSpaceBytes: config.snapshotSpaceBytes,
      clock: config.clock,
      strictVersions: config.strictVersions,
      journalSize: config.journalSize,
      strict: config.strict,
      control: config.control,
      controlToken: config.controlToken,
      controlAllowOrigins: config.controlAllowOrigins,
      cors: config.cors,
      allowedHosts: [...config.allowedHosts, config.host],
      webhooks: config.webhooks,
      webhookHistory: config.webhookHistory,
      webhookTimestamps: config.webhookTimestamps,
      webhookRetrySchedule: config.webhookRetrySchedule,
      webhookTimeoutMs: config.webhookTimeoutMs,
      settleSlice: config.settleSlice,
      ...(config.settleThreads === null
        ? {}
        : { settleWorkers: { threads: config.settleThreads } }),
    });
  } catch (err) {
    const message = err instanceof DataFileError ? err.message : (err as Error).message;
    console.error(`svc-emulator: cannot start: ${message}`);
    process.exit(2);
  }
}

/** Serves the emulator on the configured port, printing the banner; a port in use exits 1. */
function listen(emulator: Emulator, config: CliConfig): Server {
  const server = createNodeServer(emulator.app, emulator.deps, serverTimeouts(config));
  server.listen(config.port, config.host, () => {
    const info = server.address() as AddressInfo;
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    emulator.deps.webhooks.origin = `http://${host}:${info.port}`;
    console.log(
      banner(emulator, `http://${host}:${info.port}`, {
        scenario: config.scenario,
        seed: emulator.deps.config.seed,
        clock: config.clock,
        db: config.db,
      }),
    );
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') {
      console.error(
        `svc-emulator: port ${config.port} on ${config.host} is already in use. Stop the other process or pass --port.`,
      );
    } else {
      console.error(`svc-emulator: cannot listen on ${config.host}:${config.port}: ${err.message}`);
    }
    emulator.close();
    process.exit(1);
  });
  return server;
}

/** SIGTERM and SIGINT close the server and the emulator, then exit 0. */
function stopOnSignals(emulator: Emulator, server: Server, config: CliConfig): void {
  const shutdown = (signal: string) => {
    console.log(`svc-emulator: ${signal}, shutting down`);
    // Written before the grace period can cut the exit short; calls still in flight are not in it.
    if (config.coverageReport) writeReport(emulator, config.coverageReport);
    // Open journal streams (the inspector's live view) end now, or they would hold the server.
    emulator.deps.journal.endSubscriptions();
    server.close(() => {
      emulator.close();
      process.exit(0);
    });
    // Keep-alive connections would hold close() open; they are dropped after a grace period.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function main(): void {
  const [first, ...rest] = process.argv.slice(2);
  if (first === 'replay') {
    runReplay(rest).then((code) => process.exit(code));
    return;
  }
  if (first === 'grade') {
    runGradeCommand(rest).then((code) => process.exit(code));
    return;
  }
  if ((SUBCOMMANDS as readonly string[]).includes(first ?? '')) {
    runSubcommand(first as Subcommand, rest).then((code) => process.exit(code));
    return;
  }
  const config = readConfig();
  if (config.help) {
    process.stdout.write(helpText());
    return;
  }
  if (config.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (config.proxy) {
    void startProxy({ ...config, proxy: config.proxy });
    return;
  }
  capYoungGeneration(process.execArgv, process.env.NODE_OPTIONS);
  const emulator = openEmulator(config);
  const server = listen(emulator, config);
  const gc = exposedGc();
  if (gc) collectWhenIdle(server, gc, () => process.memoryUsage().heapTotal);
  stopOnSignals(emulator, server, config);
}

main();
