/**
 * `svc-emulator replay BUNDLE` (DESIGN.md section 8 "Replay bundles"): an emulator started from
 * the bundle's world at the mark, its calls made again in order, each answer compared with the
 * recorded one (request ids, secrets, wall times and dates aside). Webhook attempts are not sent:
 * each answers as it was recorded, and runs as far before each call as it had then.
 */
import { answerHeaders, bodyDigest, flatHeaders } from '../../areas/bundles/answer.js';
import type { RecordedAnswer, RecordedCall } from '../../areas/bundles/bundle-contract.js';
import type { Bundle } from '../../areas/bundles/bundle-read.js';
import { REPLAY_CONTROL_TOKEN } from '../../areas/bundles/labels.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { AttemptGate, counts } from './attempt-gate.js';
import { KeySecrets } from './key-secrets.js';

/** A replay's outcome: 0 every answer the same, 1 the first that differs (said in `message`). */
export interface ReplayOutcome {
  code: 0 | 1;
  calls: number;
  message: string;
}

/** Headers a replayed request does not carry again: the transport's own. */
const TRANSPORT: readonly string[] = [
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
];

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
    if (TRANSPORT.includes(lower)) continue;
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
      answer: {
        status: res.status,
        headers: answerHeaders(flatHeaders(res.headers)),
        body: 'streamed',
      },
      text: null,
    };
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const path = new URL(call.path, 'http://x').pathname;
  const body = res.body === null && bytes.byteLength === 0 && recorded === null ? null : bytes;
  return {
    answer: {
      status: res.status,
      headers: answerHeaders(flatHeaders(res.headers)),
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
