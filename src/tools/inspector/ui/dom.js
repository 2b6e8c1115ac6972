// Small DOM helpers for the inspector's views: elements are built with `h`, and text always goes
// in as text (never as HTML), so nothing the emulator answers can inject markup.

/**
 * An element: `props` are attributes (`class`, `data-*`, ...), `on<event>` listeners, or element
 * properties (`value`, `checked`, ...) for non-string values; children are nodes or text.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (typeof value === 'string' || value === true)
      el.setAttribute(name, value === true ? '' : value);
    else el[name] = value;
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** `2026-01-01T00:00:05.000Z` as `2026-01-01 00:00:05.000` (virtual times are UTC). */
export function time(iso) {
  return iso ? iso.replace('T', ' ').replace('Z', '') : '';
}

/** A status as a coloured badge (`2xx`, `4xx`, `5xx`, dropped). */
export function statusBadge(status) {
  const cls = status === null ? 'dropped' : `s${String(status)[0]}xx`;
  return h('span', { class: `badge ${cls}` }, status ?? 'dropped');
}

/** A run status (`queued`, `processing`, `succeeded` ...) as a badge. */
export function runBadge(status) {
  return h('span', { class: `badge run-${status}` }, status);
}

/**
 * A table with a header row (none when `headers` is null); `rows` are arrays of cells (nodes or
 * text) or `<tr>` elements.
 */
export function table(headers, rows, props = {}) {
  return h(
    'table',
    props,
    headers
      ? h(
          'thead',
          null,
          h(
            'tr',
            null,
            headers.map((t) => h('th', null, t)),
          ),
        )
      : null,
    h(
      'tbody',
      null,
      rows.map((r) =>
        r instanceof Node
          ? r
          : h(
              'tr',
              null,
              r.map((c) => h('td', null, c)),
            ),
      ),
    ),
  );
}

/** JSON text pretty-printed when it parses, else as it is. */
export function pretty(text) {
  if (text === null || text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A control API error as the API gave it: message, and the field (`param`) it names. */
export function errorBox(err) {
  const e = err?.error;
  return h(
    'div',
    { class: 'error', role: 'alert' },
    e
      ? [h('strong', null, `${err.status} ${e.code}`), ': ', e.message]
      : String(err?.message ?? err),
    e?.param ? h('span', { class: 'param' }, ` (param: ${e.param})`) : null,
  );
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat(Infinity))
    if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** A labelled form field. */
export function field(label, input, hint) {
  return h(
    'label',
    { class: 'field' },
    h('span', null, label),
    input,
    hint ? h('small', null, hint) : null,
  );
}

/** Runs `action`; its error goes into `out` (and is cleared first). */
export async function attempt(out, action) {
  fill(out);
  try {
    return await action();
  } catch (err) {
    fill(out, errorBox(err));
    return undefined;
  }
}

/** `fn` called once `ms` after the last of a burst of calls. */
export function debounce(fn, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}
