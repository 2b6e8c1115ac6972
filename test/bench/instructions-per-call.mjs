// Instructions a call costs the server, counted by valgrind's callgrind: a count the machine's
// speed does not change (its CPU time a call swung by 2x within minutes on the shared machine).
// Starts the compiled emulator (or the floor) under callgrind with counting off, warms it with
// `--warm` calls, then counts `--calls` calls of 50 connections and prints the instructions a call
// in three parts: the garbage collector's, the optimizing compiler's, and the rest (the program's
// own work, the figure to compare two builds by). Under valgrind a call takes about 50 times as
// long, and V8's heuristics that count time (when to collect, when to optimize) behave otherwise:
// the first windows of a fresh server agree to 2%; a server that has answered tens of thousands
// of calls under valgrind counts more (see docs/development.md). Needs `valgrind`. Linux only.
// INSTR_KEEP=1 keeps callgrind's dumps (one a window) and prints their folder and the server's pid.
// Usage: node test/bench/instructions-per-call.mjs [--floor] [--post [--bare]] [--resume] [--secret S]
//   [--path P] [--scopes S] [--fault N]
//   [--dist D] [--warm N]
//   [--calls N] [--windows N] [--node-flags 'F ...'] [-- emulator flags]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flaggedCall, listeningUrl, loadsOf, parseArgs } from './per-call.mjs';

const { own, extra, option } = parseArgs(process.argv.slice(2));
const floor = own.includes('--floor');
/** `--resume`: real resumes (a failed run back to `queued`), their runs seeded uncounted. */
const resume = own.includes('--resume');
const dist = option('--dist', 'dist');
const warm = Number(option('--warm', 7000));
const calls = Number(option('--calls', 5000));
const windows = Number(option('--windows', 2));
/** `--node-flags 'F ...'`: more flags for node (V8's, say), before the server's script. */
const nodeFlags = (option('--node-flags', '') ?? '').split(' ').filter(Boolean);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'instructions-'));

const server = floor
  ? [fileURLToPath(new URL('./floor.mjs', import.meta.url))]
  : [`${dist}/main.js`, '--port', '0', '--host', '127.0.0.1', '--clock', 'manual', '--seed', '0'];
const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    // V8 writes and rewrites its machine code: valgrind must look for that everywhere.
    '--smc-check=all-non-file',
    '--instr-atstart=no',
    `--callgrind-out-file=${dir}/out`,
    process.execPath,
    // One thread: V8 then compiles and collects at the same points in every run, where with its
    // helper threads under valgrind (which runs one thread at a time) the count moved by 5 to 50%.
    '--single-threaded',
    // The memory reducer collects the whole heap when allocation looks slow, as everything does
    // under valgrind: then a call counted up to 80,000 instructions of collection, which a native
    // run under load does not do.
    '--no-memory-reducer',
    ...nodeFlags,
    ...server,
    ...(floor ? [] : extra),
  ],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
);
const url = await listeningUrl(child, (chunk) => {
  // INSTR_ECHO=1: the server's output on stderr (e.g. with --node-flags --trace-gc).
  if (process.env.INSTR_ECHO) process.stderr.write(chunk);
});

const prepare = await loadsOf(url, await flaggedCall(url, own, option), {
  resume,
  timeout: 300,
});

/** `callgrind_control` for the server (valgrind runs as the child's own process). */
const control = (...args) =>
  execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });

/** V8's collector and its optimizing compiler, by the names callgrind gives their functions. */
const COLLECTOR =
  /Scaveng|Marking|Sweeper|heap::|Heap::|IterateObjectCache|Evacuat|MemoryChunk|RememberedSet|SlotSet|RootScavenge|BodyDescriptor|Pretenuring|SemiSpace|MarkCompact|GCTracer|MinorMC|LargeObject|NewSpace|PagedSpace|FreeList|PointersUpdating|Compactor/;
const COMPILER = /compiler::|maglev|turboshaft/i;

/** A dump's instructions by part: each function's own count, named as callgrind names it. */
function parts(file) {
  const names = new Map();
  const sum = { collector: 0, compiler: 0, rest: 0 };
  let part = 'rest';
  let call = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) {
      const m = /^\((\d+)\)(?: (.*))?$/.exec(line.slice(3));
      const name = m ? (m[2] ?? names.get(m[1]) ?? '') : line.slice(3);
      if (m?.[2] !== undefined) names.set(m[1], m[2]);
      part = COLLECTOR.test(name) ? 'collector' : COMPILER.test(name) ? 'compiler' : 'rest';
    } else if (line.startsWith('cfn=')) {
      const m = /^\((\d+)\) (.*)$/.exec(line.slice(4));
      if (m) names.set(m[1], m[2]);
    } else if (line.startsWith('calls=')) call = true;
    else if (/^[0-9+*-]/.test(line)) {
      // A call line's count is its callee's, already counted as the callee's own.
      if (!call) sum[part] += Number(line.split(' ')[1] ?? 0);
      call = false;
    }
  }
  return sum;
}

await (await prepare(warm))();
for (let window = 1; window <= windows; window += 1) {
  const load = await prepare(calls);
  control('-z');
  control('-i', 'on');
  const result = await load();
  control(`--dump=window${window}`);
  control('-i', 'off');
  const dumps = readdirSync(dir).filter((f) => f.startsWith('out.'));
  const file = join(dir, dumps.sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))).at(-1));
  const sum = parts(file);
  const per = (n) => Math.round(n / result.requests.total).toLocaleString('en');
  console.log(
    `${floor ? 'floor' : `${dist} ${extra.join(' ')}`} window ${window}: ${result.requests.total} calls; ` +
      `instructions a call: ${per(sum.rest)} the program's, ${per(sum.collector)} the collector's, ` +
      `${per(sum.compiler)} the compiler's`,
  );
}
child.kill('SIGKILL');
if (process.env.INSTR_KEEP) console.log(`kept ${dir} (server pid ${child.pid})`);
else rmSync(dir, { recursive: true, force: true });
