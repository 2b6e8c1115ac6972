// The inspector's one way to the emulator: control API calls, with the control token when one is
// needed (asked once, kept in this tab's sessionStorage, sent as X-Control-Token), and the
// journal's event stream read through fetch, which, unlike EventSource, can send that header.

const TOKEN_KEY = 'svc-emulator.control-token';

/** A control call that did not answer 2xx: `error` is the API's error envelope body. */
export class ControlError extends Error {
  constructor(status, error) {
    super(error?.message ?? `The emulator answered ${status}.`);
    this.status = status;
    this.error = error ?? null;
  }
}

let asking = null;

/** Shows the token dialog once for any number of waiting calls; resolves when a token is given. */
function askToken() {
  asking ??= new Promise((resolve) => {
    const dialog = document.getElementById('token-dialog');
    const form = document.getElementById('token-form');
    const input = document.getElementById('token-input');
    form.addEventListener(
      'submit',
      (event) => {
        event.preventDefault();
        sessionStorage.setItem(TOKEN_KEY, input.value);
        dialog.close();
        asking = null;
        resolve();
      },
      { once: true },
    );
    dialog.showModal();
  });
  return asking;
}

function headers(json) {
  const h = {};
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) h['x-control-token'] = token;
  if (json) h['content-type'] = 'application/json';
  return h;
}

/** A 401 that asks for the control token (none given yet, or a wrong one). */
async function unauthorized(res) {
  if (res.status !== 401) return false;
  const body = await res
    .clone()
    .json()
    .catch(() => null);
  return body?.error?.code === 'control_unauthorized';
}

/**
 * `method /_control<path>` with `body` as JSON; answers the parsed JSON (or text), throws
 * `ControlError` unless 2xx.
 */
export async function control(method, path, body) {
  const res = await fetch(`/_control${path}`, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (await unauthorized(res)) {
    await askToken();
    return control(method, path, body);
  }
  const text = await res.text();
  const isJson = res.headers.get('content-type')?.includes('json');
  const parsed = isJson && text ? JSON.parse(text) : text;
  if (!res.ok) throw new ControlError(res.status, parsed?.error);
  return parsed;
}

/** Saves what `GET /_control<path>` answers as a file (an archive, the coverage Markdown). */
export async function download(path, filename) {
  const res = await fetch(`/_control${path}`, { headers: headers(false) });
  if (await unauthorized(res)) {
    await askToken();
    return download(path, filename);
  }
  if (!res.ok) throw new ControlError(res.status, (await res.json().catch(() => null))?.error);
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Each `event: ...` / `data: ...` block of a server-sent event stream, as it arrives. */
async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      const data = field('data');
      if (data !== undefined) onEvent(field('event') ?? 'message', JSON.parse(data));
      end = buffer.indexOf('\n\n');
    }
  }
}

/**
 * Follows `GET /_control<path>` (server-sent events) until the returned function is called,
 * reconnecting after a second; `onState('live' | 'reconnecting')` on each change. A view reloads
 * what it shows on `open` (events may have been missed before it).
 */
export function stream(path, onEvent, onState = () => {}) {
  const abort = new AbortController();
  let stopped = false;
  (async () => {
    while (!stopped) {
      try {
        const res = await fetch(`/_control${path}`, {
          headers: headers(false),
          signal: abort.signal,
        });
        if (await unauthorized(res)) {
          await askToken();
          continue;
        }
        if (!res.ok) throw new ControlError(res.status, null);
        onState('live');
        onEvent('open', {});
        await readEvents(res.body, onEvent);
      } catch {
        if (stopped) return;
      }
      onState('reconnecting');
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return () => {
    stopped = true;
    abort.abort();
  };
}
