/**
 * The CI recipes run for real: the workflow's wait step (bash and curl, always), then, where this
 * machine can run containers (podman: test/recipes/podman.ts), the image built from this checkout
 * started with the compose file's settings, with the workflow service's settings (its `options`
 * split as the Actions runner splits them), and through `svc-emulator/testcontainers`. Where it
 * cannot, those tests are skipped and the reason is printed and put in the suite's name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GenericContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator } from '../../src/tools/harness/index.js';
import { SvcEmulatorContainer } from '../../src/tools/testcontainers/index.js';
import * as Podman from './podman.js';
import { EXAMPLES, readCompose, readWorkflow, splitRunnerOptions, waitStep } from './recipes.js';

const work = mkdtempSync(join(tmpdir(), 'svc-emulator-recipes-'));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  Podman.cleanUp();
});

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

/** Runs the workflow's wait step as the runner runs a `run:` (bash -eo pipefail), bounded. */
function runWaitStep(url: string): Promise<Podman.Result> {
  const script = join(work, 'wait-step.sh');
  writeFileSync(script, waitStep(readWorkflow()).run);
  const env = { PATH: process.env.PATH, SVC_EMULATOR_URL: url };
  return Podman.runCommand(
    'bash',
    ['--noprofile', '--norc', '-eo', 'pipefail', script],
    120_000,
    env,
  );
}

test("the workflow's wait step polls /_control/health until the emulator answers, then exits 0", async () => {
  const port = await freePort();
  // The first poll meets a port that takes connections and drops them; the emulator comes up then.
  const firstPoll = new Promise<void>((polled) => {
    const early = createServer((socket) => {
      socket.destroy();
      early.close(() => polled());
    }).listen(port, '127.0.0.1');
  });
  const step = runWaitStep(`http://127.0.0.1:${port}`);
  await firstPoll;
  const emulator = await startEmulator({ port });
  try {
    const { code, stdout, stderr } = await step;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({ status: 'ok' });
  } finally {
    await emulator.stop();
  }
});

const why = await Podman.whyNoContainers();
if (why !== null) console.warn(`test/recipes/containers.test.ts: container tests SKIPPED: ${why}`);

/** `podman healthcheck run` until it passes, at most `retries` times `intervalMs` apart. */
async function healthy(container: string, retries: number, intervalMs: number): Promise<boolean> {
  for (let i = 0; i < retries; i++) {
    if ((await Podman.podman(['healthcheck', 'run', container], 30_000)).code === 0) return true;
    await sleep(intervalMs);
  }
  return false;
}

/** GET with a given Host header (fetch does not let a caller set it). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((done, fail) => {
    const req = request(url, { headers: { host }, timeout: 10_000 }, (res) => {
      res.resume();
      done(res.statusCode);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer in 10 s`)));
    req.on('error', fail);
    req.end();
  });
}

describe.skipIf(why !== null)(
  why === null ? 'in containers (podman)' : `in containers: SKIPPED, ${why}`,
  () => {
    let stopDockerApi: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      await Podman.buildImage();
      const api = await Podman.startDockerApi();
      stopDockerApi = api.stop;
      process.env.DOCKER_HOST = api.dockerHost;
      // Ryuk, testcontainers' cleanup container, is an image from Docker Hub: none can be pulled
      // here. Each test stops what it starts instead.
      process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    }, 16 * 60_000);
    afterAll(() => stopDockerApi?.());

    test('docker-compose.yml: the emulator service turns healthy and serves the mounted scenario', async () => {
      const compose = readCompose();
      const containerPort = Number(compose.ports[0]!.split(':')[1]);
      const [source, target, mode] = compose.volumes[0]!.split(':');
      const { test: cmd, intervalMs, timeoutMs, retries, startPeriodMs } = compose.healthcheck;
      // What `docker compose up` asks the engine for, but a free host port instead of 8710.
      const started = await new GenericContainer(Podman.IMAGE)
        .withExposedPorts(containerPort)
        .withBindMounts([
          { source: resolve(EXAMPLES, source!), target: target!, mode: mode as 'ro' },
        ])
        .withEnvironment(compose.environment)
        .withHealthCheck({
          test: cmd as ['CMD', ...string[]],
          interval: intervalMs,
          timeout: timeoutMs,
          retries,
          startPeriod: startPeriodMs,
        })
        .withWaitStrategy(Wait.forLogMessage(/listening on/))
        .withStartupTimeout(60_000)
        .start();
      try {
        // No systemd here to run health checks on a timer: run the compose healthcheck by hand,
        // as often as `up --wait` would wait for it.
        expect(await healthy(started.getId(), retries, intervalMs)).toBe(true);
        const base = `http://127.0.0.1:${started.getMappedPort(containerPort)}`;
        const me = await fetch(`${base}/v1/keys/me`, {
          headers: { authorization: 'Bearer svc_test_team_ci' },
        });
        expect(me.status).toBe(200);
        expect(await me.json()).toMatchObject({ id: 'key_teamci' });
        const clock = await fetch(`${base}/_control/accounts/acct_teamci/clock`);
        expect(await clock.json()).toMatchObject({ mode: 'manual' });
        const load = await fetch(`${base}/_control/scenarios/load`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: compose.environment.EMULATOR_SCENARIO }),
        });
        expect(load.status).toBe(200);
        // Another service of the compose project reaches it as http://emulator:8710.
        expect(await statusWithHost(`${base}/_control/health`, 'emulator:8710')).toBe(200);
      } finally {
        await started.stop({ timeout: 5_000 });
      }
    });

    test('github-actions.yml: the service container turns healthy and the wait step passes against it', async () => {
      const workflow = readWorkflow();
      const containerPort = workflow.service.ports[0]!.split(':')[1]!;
      const hostPort = await freePort();
      const name = `svc-emulator-recipes-${process.pid}`;
      const env = Object.entries(workflow.service.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      const options = splitRunnerOptions(workflow.service.options);
      // The runner's `docker create ... <options> <image>` and `docker start`, with a free port.
      const args = ['run', '-d', '--name', name, '-p', `${hostPort}:${containerPort}`, ...env];
      const run = await Podman.podman([...args, ...options, Podman.IMAGE], 60_000);
      expect(run.stderr.split('\n').filter((l) => /error/i.test(l) && !/systemd/.test(l))).toEqual(
        [],
      );
      try {
        const flag = (f: string) => options[options.indexOf(f) + 1]!;
        const interval = Number.parseFloat(flag('--health-interval')) * 1000;
        expect(await healthy(name, Number(flag('--health-retries')), interval)).toBe(true);

        const url = workflow.env.SVC_EMULATOR_URL!.replace(`:${containerPort}`, `:${hostPort}`);
        const { code, stdout } = await runWaitStep(url);
        expect(code).toBe(0);
        expect(JSON.parse(stdout)).toMatchObject({ status: 'ok' });
        const clock = await fetch(`${url}/_control/accounts/acct_00000000000000000000000001/clock`);
        expect(await clock.json()).toMatchObject({ mode: workflow.service.env.EMULATOR_CLOCK });
      } finally {
        await Podman.podman(['rm', '-f', '-t', '2', name], 30_000);
      }
    });

    test('svc-emulator/testcontainers: scenario folder, seed and clock reach the container; ids match the in-process harness', async () => {
      const scenariosDir = join(EXAMPLES, 'scenarios');
      const container = await new SvcEmulatorContainer(Podman.IMAGE)
        .withScenariosDir(scenariosDir)
        .withScenario('team-ci')
        .withSeed('42')
        .withClock('manual')
        .withControlToken('ci-token')
        .withStartupTimeout(60_000)
        .start();
      const local = await startEmulator({ scenariosDir, scenario: 'team-ci', seed: '42' });
      try {
        expect(container.baseUrl).toBe(container.getBaseUrl());
        expect(container.getApiUrl()).toBe(`${container.baseUrl}/v1`);
        // The health wait and `control` send the token (and the runtime's host is allowed).
        expect(await container.control.health()).toMatchObject({ status: 'ok' });
        expect((await fetch(`${container.getControlUrl()}/health`)).status).not.toBe(200);

        const me = await fetch(`${container.getApiUrl()}/keys/me`, {
          headers: { authorization: 'Bearer svc_test_team_ci' },
        });
        expect(await me.json()).toMatchObject({ id: 'key_teamci' });

        const there = await container.control.newAccount();
        const here = await local.control.newAccount();
        expect(there.account.id).toBe(here.account.id);
        expect(there.key.secret).toBe(here.key.secret);
        expect((await there.clock.get()).mode).toBe('manual');
        const created = await fetch(`${there.apiUrl}/evaluations`, {
          method: 'POST',
          headers: { ...there.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ spec: { path: 'specs/pick.yaml', name: 'pick' } }),
        });
        expect(created.status).toBe(201);
      } finally {
        await local.stop();
        await container.stop({ timeout: 5_000 });
      }
      const gone = await Podman.podman(['container', 'exists', container.getId()], 30_000);
      expect(gone.code).toBe(1);
      // An afterAll may stop it again: the first stop's answer, no error.
      await expect(container.stop()).resolves.toBeDefined();
    });
  },
);
