/**
 * The CLI as a process, started as `npm start` starts it (`node --import tsx src/main.ts`), for the
 * tests of what only a process shows: its banner, exit status and output. Nothing here has a
 * deadline: a start waits for the banner or the end, a run for the end, and the test's limit
 * (test/wait.ts) catches a hang. A child still running when its test ends is killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** The banner's first line (and the proxy's), with the URL it listens on as group 1. */
export const LISTENING = /listening on (http:\/\/\S+)/;

export interface CliRun {
  child: ChildProcess;
  /** Group 1 of the `ready` pattern (the URL it listens on); undefined if it ended before. */
  base: string | undefined;
  /** Its exit status once it has ended and its output is read; undefined while it runs. */
  readonly code: number | null | undefined;
  /** What it printed so far on stdout, on stderr, and on both as they came. */
  readonly stdout: string;
  readonly stderr: string;
  readonly out: string;
  /** Sends `signal` (SIGTERM by default) and answers its exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function spawnCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const text = { stdout: '', stderr: '', out: '', code: undefined as number | null | undefined };
  child.stdout!.on('data', (chunk: Buffer) => {
    text.stdout += chunk;
    text.out += chunk;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    text.stderr += chunk;
    text.out += chunk;
  });
  // 'close', not 'exit': by then every byte it wrote has been read.
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      text.code = code;
      resolve(code);
    }),
  );
  const run: CliRun = {
    child,
    base: undefined,
    get code() {
      return text.code;
    },
    get stdout() {
      return text.stdout;
    },
    get stderr() {
      return text.stderr;
    },
    get out() {
      return text.out;
    },
    stop(signal = 'SIGTERM') {
      if (text.code === undefined) child.kill(signal);
      return closed;
    },
  };
  return { run, closed };
}

/**
 * Runs `svc-emulator ...args` to its end.
 * @example const { code, stderr } = await runCli(['verify', '--rps', '0']);
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { run, closed } = spawnCli(args, env);
  await closed;
  return run;
}

/**
 * Starts `svc-emulator ...args`; answers once its stdout matches `ready` (its banner, by default),
 * with `base` set, or once it has ended without, with `code` set.
 * @example const cli = await startCli(['--port', '0']); await fetch(`${cli.base}/v1/keys/me`);
 */
export function startCli(
  args: string[],
  { env = {}, ready = LISTENING }: { env?: Record<string, string>; ready?: RegExp } = {},
): Promise<CliRun> {
  const { run, closed } = spawnCli(args, env);
  return new Promise((resolve) => {
    const look = () => {
      const match = ready.exec(run.stdout);
      if (!match) return;
      run.child.stdout!.off('data', look);
      run.base = match[1];
      resolve(run);
    };
    run.child.stdout!.on('data', look);
    void closed.then(() => resolve(run));
  });
}
