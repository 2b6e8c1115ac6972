/**
 * Podman for the container tests: the image built from this checkout and a Docker-API socket for
 * testcontainers. It follows shared/tools/container-check (which .ci/run runs first): the same
 * engine settings (runc, cgroupfs, a file event log, nofile within our hard limit) and the same
 * `podman build` flags, so the layers that check just built are reused and the build here takes
 * seconds; the Dockerfile's `node:*` base must already be in podman's storage (that check builds
 * a local stand-in, since no registry is reachable from CI) or be pullable. Every wait is bounded.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The tag the tests build; `localhost/` so that no registry is ever asked for it. */
export const IMAGE = 'localhost/svc-emulator:test';
const BUILD_TIMEOUT_MS = 15 * 60_000;

const work = mkdtempSync(join(tmpdir(), 'svc-emulator-podman-'));

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end or `timeoutMs` (then SIGKILL, code null); never throws. */
export function runCommand(
  file: string,
  args: string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Result> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        done({ code, stdout, stderr: stderr || (err && code === null ? String(err) : '') });
      },
    );
  });
}

let engineEnv: Promise<NodeJS.ProcessEnv> | undefined;
/** container-check's engine settings (written once); a CONTAINERS_CONF of the caller's own wins. */
function podmanEnv(): Promise<NodeJS.ProcessEnv> {
  engineEnv ??= writeEngineConf();
  return engineEnv;
}

async function writeEngineConf(): Promise<NodeJS.ProcessEnv> {
  if (process.env.CONTAINERS_CONF) return process.env;
  const nofile = (await runCommand('sh', ['-c', 'ulimit -Hn'], 5_000)).stdout.trim();
  const hasRunc = (await runCommand('sh', ['-c', 'command -v runc'], 5_000)).code === 0;
  const conf = join(work, 'containers.conf');
  writeFileSync(
    conf,
    [
      '[containers]',
      `default_ulimits = [${/^\d+$/.test(nofile) ? `"nofile=${nofile}:${nofile}", ` : ''}"nproc=32768:32768"]`,
      '[engine]',
      hasRunc ? 'runtime = "runc"' : '',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      '',
    ].join('\n'),
  );
  return { ...process.env, CONTAINERS_CONF: conf };
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/** `podman ...` with the engine settings above. */
export async function podman(args: string[], timeoutMs = 60_000): Promise<Result> {
  return runCommand('podman', args, timeoutMs, await podmanEnv());
}

/** The Dockerfile's base image (`ARG NODE_IMAGE=...`), as `FROM ${NODE_IMAGE}` names it. */
function baseImage(): string {
  const arg = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  if (!arg) throw new Error('Dockerfile: no ARG NODE_IMAGE=...');
  return arg[1]!;
}

/**
 * Why this machine cannot run the container tests, or null when it can: podman present, the
 * base image at hand, and a trivial container runs. A few seconds; at most about 3 minutes.
 */
export async function whyNoContainers(): Promise<string | null> {
  const version = await podman(['--version'], 10_000);
  if (version.code !== 0)
    return `podman is not installed or does not run (${version.stderr.trim() || 'not found'})`;
  const base = baseImage();
  if ((await podman(['image', 'exists', base], 30_000)).code !== 0) {
    const pulled = await podman(['pull', '-q', base], 120_000);
    if (pulled.code !== 0) {
      return `the Dockerfile's base image ${base} is not in podman's storage and cannot be pulled (${lastLine(pulled.stderr)}); shared/tools/container-check builds a local stand-in`;
    }
  }
  const probe = await podman(['run', '--rm', '--network', 'none', base, 'true'], 60_000);
  if (probe.code !== 0) return `podman cannot run a container here (${lastLine(probe.stderr)})`;
  return null;
}

/** Builds IMAGE from this checkout (layers cached by podman). */
export async function buildImage(): Promise<void> {
  const args = ['build', '--pull=never', '--network', 'host', '--format', 'docker', '-t', IMAGE];
  const built = await podman([...args, ROOT], BUILD_TIMEOUT_MS);
  if (built.code !== 0) {
    throw new Error(`podman build failed (${built.code}):\n${built.stderr.slice(-3000)}`);
  }
}

/** GET /_ping on a Docker-API socket: true once it answers OK. */
function ping(socketPath: string): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ socketPath, path: '/_ping', timeout: 2_000 }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * `podman system service` on a socket of its own: `DOCKER_HOST` for testcontainers. Answers the
 * socket's URL and a stop function (kills the service this started, by its process).
 */
export async function startDockerApi(): Promise<{ dockerHost: string; stop: () => Promise<void> }> {
  const socket = join(work, 'podman.sock');
  const service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
    env: await podmanEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  service.stderr.on('data', (chunk: Buffer) => {
    log = (log + chunk).slice(-4000);
  });
  const exited = new Promise<void>((done) => service.once('exit', () => done()));
  const stop = async () => {
    service.kill('SIGTERM');
    if (await Promise.race([exited.then(() => true), sleep(10_000, false)])) return;
    service.kill('SIGKILL');
  };
  for (let i = 0; i < 100; i++) {
    if (await ping(socket)) return { dockerHost: `unix://${socket}`, stop };
    if (service.exitCode !== null) break;
    await sleep(200);
  }
  await stop();
  throw new Error(`podman system service did not answer on ${socket} within 20 s:\n${log}`);
}

/** Removes the scratch folder (containers.conf, the socket). */
export function cleanUp(): void {
  rmSync(work, { recursive: true, force: true });
}
