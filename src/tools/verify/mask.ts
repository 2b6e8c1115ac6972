/**
 * Secrets never reach a report or a cassette (DESIGN.md section 8). Three layers: headers that
 * carry credentials are replaced, JSON fields whose name says secret are replaced, and, last,
 * every secret seen (the keys given, webhook secrets answered) is cut out of the text written.
 */

export const MASK = '***';

/** Request or answer headers that carry a credential. */
const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-control-token',
  'x-api-key',
  'webhook-signature',
];

/** A JSON field with one of these names holds a secret, e.g. a webhook endpoint's `secret`. */
const SECRET_FIELD = /secret|password|token$|^token|signature|api_?key|authorization/i;

/** Query parameters of a signed link (e.g. S3's `X-Amz-Signature`) and the emulator's link token. */
const SIGNED_QUERY = /([?&](?:[\w-]*signature|[\w-]*token|sig|key|x-amz-[\w-]+)=)[^&#\s"]+/gi;
const DOWNLOAD_TOKEN = /(\/_downloads\/)[^/?#\s"]+/g;

/** The secrets of one run: every one is cut from what is written. */
export class SecretSet {
  private readonly values = new Set<string>();

  add(value: string | undefined | null): void {
    // Short values would cut ordinary words out of the text; a key or a secret is longer.
    if (value && value.length >= 8) this.values.add(value);
  }

  /** `text` with every secret, signed-link token and download token replaced. */
  scrub(text: string): string {
    let out = text;
    for (const v of [...this.values].sort((a, b) => b.length - a.length))
      out = out.split(v).join(MASK);
    return out.replace(SIGNED_QUERY, `$1${MASK}`).replace(DOWNLOAD_TOKEN, `$1${MASK}`);
  }
}

/** Headers as a plain object, lower-cased names, credentials replaced by `label(value)`. */
export function maskHeaders(
  headers: Record<string, string>,
  label: (name: string, value: string) => string = () => MASK,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[lower] = SECRET_HEADERS.includes(lower) ? label(lower, value) : value;
  }
  return out;
}

/** A JSON value with every field named like a secret replaced (its value is remembered). */
export function maskJson(value: unknown, secrets: SecretSet): unknown {
  if (Array.isArray(value)) return value.map((v) => maskJson(v, secrets));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_FIELD.test(k) && typeof v === 'string') {
      secrets.add(v);
      out[k] = MASK;
    } else out[k] = maskJson(v, secrets);
  }
  return out;
}

/** A URL without credentials in it (`https://user:pass@host` keeps the host only). */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
