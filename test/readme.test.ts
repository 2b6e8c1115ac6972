/**
 * Runs the curl examples of the README and of the manual under docs/, and compares what they print
 * with the `text` block each shows after them.
 *
 * Which files: README.md, then each file of docs/ in the order of the README's table of contents
 * (the links `docs/<name>.md` of its section "The manual"), which must list every file of docs/.
 * They run as one session, so variables and ids carry over from one file to the next as for a
 * reader who follows them in that order.
 *
 * Which blocks: every ```sh block, in document order, except one preceded by the line
 * `<!-- readme-test: skip -->` (commands for the user's own shell: installing, starting a server,
 * docker, npm pack). The ```text block right after a run block (only blank lines between) is its
 * expected output; a run block without one must print nothing.
 *
 * The start command: every file with a block to run says, in a paragraph before its first one,
 * "The examples assume the emulator started with `npm start -- <args>`", every file the same
 * <args>; every file after the first names (by file name) the file whose examples run just before
 * its own. The test starts its emulator with those <args> (the same parseConfig as main.ts), so
 * the command the documents state is the one their outputs come from.
 *
 * How: one emulator in this process, on a free port of 127.0.0.1, and one bash process that runs
 * the blocks one after the other, so variables set by a block (KEY, RUN, ...) carry over as in the
 * user's shell and every request happens in document order (ids depend on that order). Each block
 * is wrapped in `{ ...; } > out.<n> 2>&1`, a group in the same shell, so its output is captured
 * byte for byte. No `set -e` and no `pipefail`: the examples are written for a plain interactive
 * shell. The environment is PATH, HOME (an empty temporary directory, so no ~/.curlrc applies),
 * LC_ALL=C and nothing else (no proxy variables); the working directory is that temporary directory
 * (an example downloads an archive there).
 *
 * The port: the documents' origin is `localhost:8710`. The test replaces `localhost:8710` with
 * `127.0.0.1:<port>` in the commands, and `127.0.0.1:<port>` with `localhost:8710` in their
 * outputs. That origin appears in outputs only where the emulator derives `{base_url}` from the
 * Host header curl sends (download URLs), so this is the one substitution the test makes.
 *
 * Two more normalisations, both of what a terminal shows anyway: an output that does not end in a
 * newline (a bare `curl -s` of a JSON body) is compared as if it did, and the CRLF line ends of
 * HTTP headers (`curl -D -`) as LF.
 *
 * test/docs-links.test.ts checks that the README and docs/ point only at files that exist.
 */
import { type ChildProcess, execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfig } from '../src/config.js';
import { type RunningEmulator, startEmulator } from '../src/tools/harness/index.js';
import { docsOnDisk, readingOrder, tableOfContents } from './doc-files.js';

const SKIP_MARKER = '<!-- readme-test: skip -->';
const README_ORIGIN = 'localhost:8710';
const START_STATEMENT = /The examples assume the emulator started with `npm start -- ([^`]*)`/;

interface Block {
  /** `README.md` or `docs/<name>.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  heading: string;
  script: string;
  /** The following `text` block, or '' when there is none. */
  expected: string;
  skipped: boolean;
  /** The paragraphs of the file before this block, whitespace collapsed. */
  before: string[];
}

/** The ```sh blocks of a Markdown document, in order, with their outputs and skip markers. */
function shellBlocks(file: string, markdown: string): Block[] {
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
    const before = lines
      .slice(0, fence.open)
      .join('\n')
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s+/g, ' ').trim());
    return [
      {
        file,
        line: fence.open + 1,
        heading: fence.heading,
        script: fence.body,
        expected: isOutput ? next.body : '',
        skipped: lines[fence.open - 1] === SKIP_MARKER,
        before,
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
const files = readingOrder();
const blocks = files.flatMap((f) => shellBlocks(f.path, f.markdown));
const runnable = blocks.filter((b) => !b.skipped);

/** Per file with a block to run, in order: the paragraph stating the start command, if any. */
const statements = files.flatMap((f) => {
  const first = runnable.find((b) => b.file === f.path);
  if (!first) return [];
  const paragraph = first.before.find((p) => START_STATEMENT.test(p));
  return [{ file: f.path, paragraph, args: paragraph && START_STATEMENT.exec(paragraph)![1]! }];
});
/** The arguments of `npm start -- <args>` the README states, as main.ts would receive them. */
const startArgs = (statements[0]?.args ?? '').split(' ').filter((a) => a !== '');

describe.skipIf(missing.length > 0)(
  `README and docs curl examples${missing.length ? ` (skipped: ${missing.join(', ')} not on PATH)` : ''}`,
  () => {
    let server: RunningEmulator;
    let dir: string;
    let outputs: string[] = [];
    let stderr = '';
    let bash: ChildProcess | undefined;

    beforeAll(async () => {
      // The options main.ts passes for `npm start -- <args>`; a free port instead of 8710.
      const cli = parseConfig(startArgs, {});
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
            `# ${b.file}:${b.line}\n{\n${b.script.replaceAll(README_ORIGIN, origin)}} > out.${n} 2>&1\n`,
        )
        .join('');
      writeFileSync(join(dir, 'examples.sh'), script);
      // No deadline of its own: on a busy machine the examples take what they take, and the
      // hook's limit (test/wait.ts) catches a hang; afterAll ends a script still running.
      stderr = await new Promise<string>((resolve) => {
        bash = execFile(
          'bash',
          ['examples.sh'],
          { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LC_ALL: 'C' } },
          (_err, _stdout, stderrText) => resolve(stderrText),
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
    });

    afterAll(async () => {
      if (bash?.exitCode === null) bash.kill('SIGKILL');
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('the script ran to the end without shell errors', () => {
      expect(stderr).toBe('');
    });

    test.each(runnable.map((b, n) => [`${b.file}:${b.line} (${b.heading})`, n] as const))(
      '%s prints what the document shows',
      (_name, n) => {
        expect(outputs[n]).toBe(runnable[n]!.expected);
      },
    );
  },
);

test("the README's table of contents lists every file of docs/, each once", () => {
  const readme = files[0]!.markdown;
  expect([...tableOfContents(readme)].sort()).toEqual(docsOnDisk());
});

test('every file with examples states the start command, and the file whose examples run before', () => {
  expect(statements[0]?.file).toBe('README.md');
  expect(startArgs).toEqual(['--clock', 'manual']);
  statements.forEach((s, k) => {
    // Before its first example: "The examples assume the emulator started with `npm start -- ...`".
    expect(s.paragraph, `${s.file}: no start statement before its first example`).toBeDefined();
    expect(s.args, `${s.file}: another start command than the README's`).toBe(statements[0]!.args);
    if (k > 0) {
      const previous = basename(statements[k - 1]!.file);
      expect(
        s.paragraph,
        `${s.file}: does not name ${previous}, whose examples run before`,
      ).toContain(previous);
    }
  });
});

test('every sh block of the README and docs/ runs here or is marked to be skipped', () => {
  // Blocks for the user's own shell; anything else must run. A new example is run by default.
  const skipped = blocks
    .filter((b) => b.skipped)
    .map((b) => `${b.file}: ${b.script.split('\n')[0]}`);
  expect(skipped).toEqual([
    'README.md: npm ci',
    'README.md: docker build -t svc-emulator .',
    'README.md: docker run --rm -p 8710:8710 -e EMULATOR_CLOCK=manual -e EMULATOR_SEED=42 svc-emulator',
    'docs/testing.md: npm pack                                          # svc-emulator-0.1.0.tgz',
    // grade reads the emulator a suite used, in the user's shell.
    'docs/error-handling.md: npx svc-emulator grade --url http://localhost:8710 --account "$LAB_ACCT" --report grade-report',
    // A live service is what verify, the proxy and drift are for.
    'docs/verify.md: export EMULATOR_VERIFY_KEY=svc_live_...        # or --key; the variable stays out of shell history',
    'docs/verify.md: npx svc-emulator --proxy https://api.example.com --record ./cassette --port 8711',
    'docs/verify.md: npx svc-emulator drift --cassette ./cassette --report drift-report',
  ]);
  expect(runnable.length).toBeGreaterThan(20);
  expect(new Set(runnable.map((b) => b.file)).size).toBeGreaterThanOrEqual(3);
});
