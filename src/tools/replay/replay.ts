/**
 * `svc-emulator replay BUNDLE` (DESIGN.md section 8 "Replay bundles"): an emulator started from
 * the bundle's world at the mark, its calls made again in order, each answer compared with the
 * recorded one (request ids, secrets, wall times and dates aside). Webhook attempts are not sent:
 * each answers as it was recorded, and runs as far before each call as it had then.
 */
import { answerHeaders, bodyDigest } from '../../areas/bundles/answer.js';
import type {
  AttemptCounts,
  RecordedAnswer,
  RecordedCall,
} from '../../areas/bundles/bundle-contract.js';
import type { Bundle } from '../../areas/bundles/bundle-read.js';
import { REPLAY_CONTROL_TOKEN, replaySecret } from '../../areas/bundles/labels.js';
import type { AttemptRef } from '../../areas/webhooks/deliveries.js';
import type { AttemptResult } from '../../areas/webhooks/send.js';
import { createEmulator, type Emulator } from '../../emulator.js';

/** How long a replay waits for the webhook attempts a call came after (wall ms). */
const ATTEMPTS_WAIT_MS = 30_000;

/** A replay's outcome: 0 every answer the same, 1 the first that differs (said in `message`). */
export interface ReplayOutcome {
  code: 0 | 1;
  calls: number;
  message: string;
}

/** Headers a replayed request does not carry again: the transport's own. */
const TRANSPORT = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding']);
const LABEL = /\{\{(key|unknown-key|control-token|wrong-control-token|masked)(?::([\w-]+))?\}\}/g;

/**
 * Replays a bundle's calls on a fresh emulator started from it.
 * @example const { code, message } = await replay(readBundleFile('b.tar.gz', version))
 */
export async function replay(bundle: Bundle): Promise<ReplayOutcome> {
  const settings = bundle.manifest.settings;
  const emulator = createEmulator({
    bundle,
    bundleReplay: true,
    controlToken: settings.control_token ? REPLAY_CONTROL_TOKEN : null,
  });
  const attempts = new AttemptGate(bundle);
  emulator.deps.webhooks.hooks = attempts.hooks();
  const secrets = new KeySecrets(emulator, bundle);
  try {
    for (const call of bundle.calls) {
      const waited = await attempts.before(call.webhooks.before);
      if (!waited)
        return differs(
          call,
          `the webhook attempts before it did not happen: ${attempts.counts()} of ${counts(call.webhooks.before)}`,
        );
      attempts.allow(call.webhooks.after);
      const { answer, text } = await send(emulator, call, secrets);
      if (text !== null) secrets.learn(text);
      const how = difference(call.answer, answer);
      if (how) return differs(call, how);
    }
    return {
      code: 0,
      calls: bundle.calls.length,
      message: `${bundle.calls.length} calls replayed, every answer the same`,
    };
  } finally {
    attempts.release();
    emulator.close();
  }
}

function differs(call: RecordedCall, how: string): ReplayOutcome {
  const path = call.path.length > 120 ? `${call.path.slice(0, 117)}...` : call.path;
  return {
    code: 1,
    calls: call.n,
    message: `call ${call.n} (${call.method} ${path}) differs: ${how}`,
  };
}

const counts = (c: AttemptCounts) => `${c.started} started, ${c.answered} answered`;

/** Makes one recorded call, its labels mapped back; the answer as a bundle records it. */
async function send(
  emulator: Emulator,
  call: RecordedCall,
  secrets: KeySecrets,
): Promise<{ answer: RecordedAnswer; text: string | null }> {
  const headers = new Headers();
  let host = '127.0.0.1';
  for (const [name, value] of call.headers) {
    const lower = name.toLowerCase();
    if (TRANSPORT.has(lower)) continue;
    if (lower === 'host') host = value;
    headers.append(name, secrets.unlabel(value));
  }
  const hasBody = call.body !== null && call.method !== 'GET' && call.method !== 'HEAD';
  const res = await emulator.app.request(`http://${host}${call.path}`, {
    method: call.method,
    headers,
    ...(hasBody ? { body: secrets.unlabel(call.body!) } : {}),
  });
  if (res.type === 'error')
    return { answer: { status: null, headers: [], body: null }, text: null };
  const type = res.headers.get('content-type');
  const recorded = call.answer.body;
  if (recorded === 'streamed' || type?.includes('event-stream')) {
    await res.body?.cancel();
    return {
      answer: { status: res.status, headers: answerHeaders(res.headers), body: 'streamed' },
      text: null,
    };
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const path = new URL(call.path, 'http://x').pathname;
  const body = res.body === null && bytes.byteLength === 0 && recorded === null ? null : bytes;
  return {
    answer: {
      status: res.status,
      headers: answerHeaders(res.headers),
      body: body === null ? null : bodyDigest(body, type, path),
    },
    text: type?.includes('json') ? Buffer.from(bytes).toString() : null,
  };
}

/** How a replayed answer differs from the recorded one, in a phrase; null when it does not. */
export function difference(recorded: RecordedAnswer, got: RecordedAnswer): string | null {
  const status = (s: number | null) => (s === null ? 'a dropped connection' : `status ${s}`);
  if (recorded.status !== got.status)
    return `${status(got.status)}, recorded ${status(recorded.status)}`;
  const was = new Map(recorded.headers);
  const now = new Map(got.headers);
  for (const [name, value] of recorded.headers) {
    if (!now.has(name)) return `no ${name} header, recorded '${value}'`;
    if (now.get(name) !== value) return `header ${name} '${now.get(name)}', recorded '${value}'`;
  }
  for (const [name, value] of got.headers)
    if (!was.has(name)) return `a ${name} header '${value}' not recorded`;
  const a = recorded.body;
  const b = got.body;
  if (a === 'streamed' || b === 'streamed') return null;
  if (a === null || b === null) return a === b ? null : `a body where none was recorded, or none`;
  if (a.sha256 !== b.sha256)
    return `the body differs (${b.bytes} bytes, sha256 ${b.sha256.slice(0, 12)}; recorded ${a.bytes} bytes, sha256 ${a.sha256.slice(0, 12)})`;
  return null;
}

/**
 * The secrets the labels stand for on replay: a key in the world at the mark has its replay
 * secret; one a scenario made on a reset, the bundle's scenario copy's; one a call made, the
 * secret its answer showed.
 */
class KeySecrets {
  private readonly learned = new Map<string, string>();
  private readonly scenario: string[] = [];

  constructor(
    private readonly emulator: Emulator,
    bundle: Bundle,
  ) {
    const accounts = (
      bundle.manifest.scenario as { accounts?: { keys?: { secret?: unknown }[] }[] }
    ).accounts;
    for (const acct of accounts ?? [])
      for (const key of acct.keys ?? [])
        if (typeof key.secret === 'string') this.scenario.push(key.secret);
  }

  /** The secret of key `id` that authenticates now, else its replay secret (which does not). */
  private secret(id: string): string {
    const { store } = this.emulator.deps;
    const learned = this.learned.get(id);
    for (const candidate of [learned, replaySecret(id), ...this.scenario])
      if (candidate && store.credentials(candidate)?.key.id === id) return candidate;
    return learned ?? replaySecret(id);
  }

  unlabel(text: string): string {
    return text.replace(LABEL, (_all, label: string, arg: string | undefined) => {
      if (label === 'key') return this.secret(arg!);
      if (label === 'unknown-key') return `svc_replay_unknown_${arg}`;
      if (label === 'control-token') return REPLAY_CONTROL_TOKEN;
      if (label === 'wrong-control-token') return `wrong-control-token-${arg}`;
      return 'masked';
    });
  }

  /** Keys an answer showed with their secrets (`{id: "key_...", secret: "svc_..."}`). */
  learn(text: string): void {
    if (!text.includes('"secret"')) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) for (const item of v) walk(item);
      else if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.id === 'string' && typeof o.secret === 'string')
          this.learned.set(o.id, o.secret);
        for (const inner of Object.values(o)) walk(inner);
      }
    };
    walk(value);
  }
}

/**
 * The webhook attempts of a replay: none sent; each held until the call before which it had
 * started (or been answered) comes, then answered as recorded.
 */
class AttemptGate {
  private started = 0;
  private answered = 0;
  private startsLet = 0;
  private answersLet = 0;
  private allowed: AttemptCounts = { started: 0, answered: 0 };
  private readonly results = new Map<string, AttemptResult>();
  private waiters: (() => void)[] = [];
  private released = false;

  constructor(bundle: Bundle) {
    for (const e of bundle.attempts)
      if (e.event === 'answered')
        this.results.set(refKey(e), {
          statusCode: e.status_code ?? null,
          error: e.error ?? null,
          responseBody: e.response_body ?? null,
        });
  }

  hooks() {
    return {
      beforeAttempt: async () => {
        await this.until(() => this.startsLet < this.allowed.started);
        this.startsLet += 1;
      },
      send: async (ref: AttemptRef): Promise<AttemptResult> => {
        await this.until(() => this.answersLet < this.allowed.answered);
        this.answersLet += 1;
        return (
          this.results.get(refKey(ref)) ?? {
            statusCode: null,
            error: 'This attempt was not in the bundle.',
            responseBody: null,
          }
        );
      },
      started: () => {
        this.started += 1;
        this.wake();
      },
      answered: () => {
        this.answered += 1;
        this.wake();
      },
    };
  }

  counts(): string {
    return counts({ started: this.started, answered: this.answered });
  }

  /** Lets the attempts run as far as `before`, and waits until they have. */
  async before(before: AttemptCounts): Promise<boolean> {
    this.allow(before);
    const reached = () => this.started >= before.started && this.answered >= before.answered;
    if (reached()) return true;
    const timer = new Promise<void>((resolve) => setTimeout(resolve, ATTEMPTS_WAIT_MS).unref());
    await Promise.race([this.until(reached), timer]);
    return reached();
  }

  allow(counts: AttemptCounts): void {
    this.allowed = {
      started: Math.max(this.allowed.started, counts.started),
      answered: Math.max(this.allowed.answered, counts.answered),
    };
    this.wake();
  }

  /** Lets everything held go (the replay is over). */
  release(): void {
    this.released = true;
    this.allowed = { started: Number.MAX_SAFE_INTEGER, answered: Number.MAX_SAFE_INTEGER };
    this.wake();
  }

  private until(ok: () => boolean): Promise<void> {
    if (ok() || this.released) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (ok() || this.released) resolve();
        else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const check of waiting) check();
  }
}

const refKey = (r: { delivery: string; series: number; number: number }) =>
  `${r.delivery}/${r.series}/${r.number}`;
