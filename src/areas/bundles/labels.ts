/**
 * Secrets in a recorded call, replaced by labels (a bundle holds no key secret), and labels
 * mapped back on replay. A key's secret becomes `{{key:<key id>}}`; a bearer secret that names
 * no key `{{unknown-key:N}}`; the control token `{{control-token}}` (a wrong one
 * `{{wrong-control-token:N}}`); other credentials `{{masked}}`. A replay gives each key the
 * secret `svc_replay_<key id>` (replaySecret), which its labels then stand for.
 */

/** A key's secret on replay: `svc_` and the key's id, which is letters, digits and `_`. */
export const replaySecret = (keyId: string) => `svc_replay_${keyId}`;
/** The control token a replayed emulator is started with, when the recorded one had one. */
export const REPLAY_CONTROL_TOKEN = 'svc-emulator-replay';

const BEARER = /^(Bearer +)(\S+)$/i;
/** JSON string fields whose value is a key secret, in a request body. */
const SECRET_FIELD = /("secret"\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
const LABEL = /\{\{(key|unknown-key|control-token|wrong-control-token|masked)(?::([\w-]+))?\}\}/g;

/** Credentials other than a bearer key: never shown, never needed by an answer. */
const MASKED_HEADERS: readonly string[] = ['cookie', 'proxy-authorization'];

/** What labelling needs: the key of a secret (if any) and the control token (if any). */
export interface LabelContext {
  keyOf(secret: string): string | undefined;
  controlToken: string | null;
}

/** Labels for the secrets of one recording: each unknown one numbered once. */
export class Labeler {
  private readonly unknown = new Map<string, number>();
  private readonly wrongTokens = new Map<string, number>();
  /** The last `Authorization` header labelled as a key's, and its label. */
  private lastKeyHeader: { value: string; secret: string; key: string; shown: string } | undefined;

  constructor(private readonly context: LabelContext) {}

  /** The label of a key secret. */
  secret(secret: string): string {
    const key = secret.startsWith('svc_') ? this.context.keyOf(secret) : undefined;
    if (key) return `{{key:${key}}}`;
    return `{{unknown-key:${numbered(this.unknown, secret)}}}`;
  }

  /**
   * Request headers as Node's flat list of names and values, secrets labelled: the list itself
   * when none is, else a copy.
   */
  headers(flat: readonly string[]): readonly string[] {
    let out: string[] | undefined;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const value = flat[i + 1]!;
      const shown = this.header(flat[i]!.toLowerCase(), value);
      if (shown === value) continue;
      out ??= flat.slice();
      out[i + 1] = shown;
    }
    return out ?? flat;
  }

  private header(name: string, value: string): string {
    if (MASKED_HEADERS.includes(name)) return '{{masked}}';
    if (name === 'x-control-token') {
      if (value === this.context.controlToken) return '{{control-token}}';
      return `{{wrong-control-token:${numbered(this.wrongTokens, value)}}}`;
    }
    if (name !== 'authorization') return value;
    // A suite sends the same key call after call: its label again, if the secret is still that key's.
    const last = this.lastKeyHeader;
    if (last?.value === value && this.context.keyOf(last.secret) === last.key) return last.shown;
    const bearer = BEARER.exec(value);
    // Only `svc_` secrets are keys; anything else is shown as sent (it is refused as such).
    const secret = bearer?.[2];
    if (!secret?.startsWith('svc_')) return value;
    const key = this.context.keyOf(secret);
    if (!key) return `${bearer![1]}${this.secret(secret)}`;
    const shown = `${bearer![1]}{{key:${key}}}`;
    this.lastKeyHeader = { value, secret, key, shown };
    return shown;
  }

  /** A request body with the value of every `secret` field labelled. */
  body(text: string): string {
    return text.replace(SECRET_FIELD, (_all, field: string, value: string) => {
      const secret = JSON.parse(`"${value}"`) as string;
      return `${field}"${this.secret(secret)}"`;
    });
  }
}

function numbered(map: Map<string, number>, value: string): number {
  const n = map.get(value) ?? map.size + 1;
  map.set(value, n);
  return n;
}

/** The key ids a recorded text labels (`{{key:...}}`). */
export function labelledKeys(text: string): string[] {
  return [...text.matchAll(LABEL)].filter((m) => m[1] === 'key').map((m) => m[2]!);
}

/**
 * A recorded text with its labels mapped back for a replay: keys to `replaySecret`, the control
 * token to `controlToken`, the rest to values that stay wrong.
 */
export function unlabel(text: string, controlToken: string): string {
  return text.replace(LABEL, (_all, label: string, arg: string | undefined) => {
    if (label === 'key') return replaySecret(arg!);
    if (label === 'unknown-key') return `svc_replay_unknown_${arg}`;
    if (label === 'control-token') return controlToken;
    if (label === 'wrong-control-token') return `wrong-control-token-${arg}`;
    return 'masked';
  });
}
