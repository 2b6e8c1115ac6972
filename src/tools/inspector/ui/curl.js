// A journaled call as a curl command that makes it again: its method, URL, headers and body as
// the journal kept them, the masked key as `$API_KEY` (the emulator keeps no secret to put back).

/** Headers curl (or the connection) sets by itself. */
const SKIP = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
  'te',
  'upgrade',
  'expect',
]);

/** `text` as one single-quoted shell word. */
const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The command for `entry` (`GET /_control/requests/{id}` with its `detail`) against `origin`;
 * `cut`: the journal cut its path, query or body, so it sends less; `masked`: a secret it sent
 * (a body field, a header other than the key) shows as `[masked]`.
 */
export function curlOf(entry, origin) {
  const request = entry.detail.request;
  const url = `${origin}${entry.path}${request.query ? `?${request.query}` : ''}`;
  // A line per option, as a person would write it.
  const method =
    entry.method === 'HEAD'
      ? ' --head'
      : entry.method !== 'GET' || request.body !== null
        ? ` -X ${entry.method}`
        : '';
  const lines = [`curl${method} ${quote(url)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (SKIP.has(name)) continue;
    // In double quotes, so the shell puts the key in (`Bearer [masked]` holds nothing to expand).
    if (name === 'authorization' && /^[\w -]*\[masked\]$/.test(value))
      lines.push(`-H "${name}: ${value.replace('[masked]', () => '$API_KEY')}"`);
    else lines.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (request.body !== null) lines.push(`--data-raw ${quote(request.body)}`);
  const cut = [entry.path, request.query, request.body ?? ''].some((t) =>
    /\.\.\.\[truncated \d+ chars\]$/.test(t),
  );
  const masked =
    (request.body ?? '').includes('"[masked]"') ||
    Object.entries(request.headers).some(
      ([n, v]) => n !== 'authorization' && v.includes('[masked]'),
    );
  return { command: lines.join(' \\\n  '), cut, masked };
}
