/**
 * Runs the README's curl examples and compares what they print with the `text` block the README
 * shows after each.
 *
 * Which blocks: every ```sh block of README.md, in document order, except one preceded by the line
 * `<!-- readme-test: skip -->` (commands for the user's own shell: installing, starting a server,
 * docker, npm pack, npm test). The ```text block right after a run block (only blank lines
 * between) is its expected output; a run block without one must print nothing.
 *
 * How: one emulator in this process, configured as `npm start -- --clock manual` (the same
 * parseConfig), on a free port of 127.0.0.1, and one bash process that runs the blocks one after
 * the other, so variables set by a block (KEY, RUN, ...) carry over as in the user's shell and
 * every request happens in README order (ids depend on that order). Each block is wrapped in
 * `{ ...; } > out.<n> 2>&1`, a group in the same shell, so its output is captured byte for byte.
 * No `set -e` and no `pipefail`: the examples are written for a plain interactive shell. The
 * environment is PATH, HOME (an empty temporary directory, so no ~/.curlrc applies), LC_ALL=C and
 * nothing else (no proxy variables); the working directory is that temporary directory (an example
 * downloads an archive there).
 *
 * The port: the README's origin is `localhost:8710`. The test replaces `localhost:8710` with
 * `127.0.0.1:<port>` in the commands, and `127.0.0.1:<port>` with `localhost:8710` in their
 * outputs. That origin appears in outputs only where the emulator derives `{base_url}` from the
 * Host header curl sends (download URLs), so this is the one substitution the test makes.
 *
 * Two more normalisations, both of what a terminal shows anyway: an output that does not end in a
 * newline (a bare `curl -s` of a JSON body) is compared as if it did, and the CRLF line ends of
 * HTTP headers (`curl -D -`) as LF.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfig } from '../src/config.js';
import { type RunningEmulator, startEmulator } from '../src/testing/index.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const SKIP_MARKER = '<!-- readme-test: skip -->';
const README_ORIGIN = 'localhost:8710';

interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  heading: string;
  script: string;
  /** The following `text` block, or '' when there is none. */
  expected: string;
  skipped: boolean;
}

/** The ```sh blocks of a Markdown document, in order, with their outputs and skip markers. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const fences: { lang: string; open: number; close: number; body: string; heading: string }[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i]!);
    if (!open) {
      if (lines[i]!.startsWith('#')) heading = lines[i]!.replace(/^#+\s*/, '');
      continue;
    }
    const start = i;
    for (i++; i < lines.length && lines[i] !== '```'; i++);
    const body = lines.slice(start + 1, i).map((l) => `${l}\n`);
    fences.push({ lang: open[1]!, open: start, close: i, body: body.join(''), heading });
  }
  return fences.flatMap((fence, k) => {
    if (fence.lang !== 'sh') return [];
    const next = fences[k + 1];
    const isOutput =
      next?.lang === 'text' &&
      lines.slice(fence.close + 1, next.open).every((l) => l.trim() === '');
    return [
      {
        line: fence.open + 1,
        heading: fence.heading,
        script: fence.body,
        expected: isOutput ? next.body : '',
        skipped: lines[fence.open - 1] === SKIP_MARKER,
      },
    ];
  });
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const missing = ['bash', 'curl', 'jq'].filter((c) => !hasCommand(c));
if (missing.length > 0) {
  console.warn(`README curl examples skipped: ${missing.join(', ')} not on PATH`);
}
const blocks = shellBlocks(README);
const runnable = blocks.filter((b) => !b.skipped);

describe.skipIf(missing.length > 0)(
  `README curl examples${missing.length ? ` (skipped: ${missing.join(', ')} not on PATH)` : ''}`,
  () => {
    let server: RunningEmulator;
    let dir: string;
    let outputs: string[] = [];
    let stderr = '';

    beforeAll(async () => {
      // The options main.ts passes for `npm start -- --clock manual`; a free port instead of 8710.
      const cli = parseConfig(['--clock', 'manual'], {});
      server = await startEmulator({
        db: cli.db,
        seed: cli.seed,
        scenario: cli.scenario,
        clock: cli.clock,
        strictVersions: cli.strictVersions,
        journalSize: cli.journalSize,
        strict: cli.strict,
        control: cli.control,
        controlToken: cli.controlToken,
        port: 0,
        host: '127.0.0.1',
      });
      const origin = new URL(server.baseUrl).host;
      dir = mkdtempSync(join(tmpdir(), 'readme-test-'));
      const script = runnable
        .map(
          (b, n) =>
            `# README.md:${b.line}\n{\n${b.script.replaceAll(README_ORIGIN, origin)}} > out.${n} 2>&1\n`,
        )
        .join('');
      writeFileSync(join(dir, 'examples.sh'), script);
      stderr = await new Promise<string>((resolve, reject) => {
        execFile(
          'bash',
          ['examples.sh'],
          {
            cwd: dir,
            env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LC_ALL: 'C' },
            timeout: 30_000,
          },
          (err, _stdout, stderrText) => {
            if (err?.killed) reject(err);
            else resolve(stderrText);
          },
        );
      });
      outputs = runnable.map((_, n) => {
        let out: string;
        try {
          out = readFileSync(join(dir, `out.${n}`), 'utf8');
        } catch {
          out = '<no output file: the script stopped before this block>\n';
        }
        out = out.replaceAll(origin, README_ORIGIN).replaceAll('\r\n', '\n');
        return out === '' || out.endsWith('\n') ? out : `${out}\n`;
      });
    }, 40_000);

    afterAll(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('the script ran to the end without shell errors', () => {
      expect(stderr).toBe('');
    });

    test.each(runnable.map((b, n) => [`README.md:${b.line} (${b.heading})`, n] as const))(
      '%s prints what the README shows',
      (_name, n) => {
        expect(outputs[n]).toBe(runnable[n]!.expected);
      },
    );
  },
);

test('every sh block of the README runs here or is marked to be skipped', () => {
  // Blocks for the user's own shell; anything else must run. A new example is run by default.
  const skipped = blocks.filter((b) => b.skipped).map((b) => b.script.split('\n')[0]);
  expect(skipped).toEqual([
    'npm ci && npm start',
    'npm test',
    'docker build -t svc-emulator .',
    'docker run --rm -p 8710:8710 -e EMULATOR_CLOCK=manual -e EMULATOR_SEED=42 svc-emulator',
    'npm pack                                          # svc-emulator-0.1.0.tgz',
  ]);
  expect(runnable.length).toBeGreaterThan(20);
});
