// Requests, live: the journal newest first, a page at a time (`GET /_control/requests`), new
// calls pushed by `GET /_control/stream/requests` with the same filters, a detail pane
// (`GET /_control/requests/{id}`, secrets masked by the emulator), and any call found by its
// `X-Request-Id`.
import { control, stream } from './api.js';
import { attempt, fill, h, statusBadge, table, time } from './dom.js';
import { renderDetail } from './request-detail.js';

const PAGE = 50;
/** Rows kept on screen; older ones are a click on "Older" away. */
const MAX_ROWS = 500;

/** Key names by key id, fetched once per account (`GET /_control/accounts/{id}/keys`). */
function keyNames() {
  const names = new Map();
  const asked = new Set();
  return (entry, cell) => {
    const { account_id: account, key_id: key } = entry;
    if (!key) return;
    if (names.has(key)) return fill(cell, names.get(key));
    if (!account || asked.has(account)) return;
    asked.add(account);
    control('GET', `/accounts/${account}/keys`).then(
      (list) => {
        for (const k of list.data) names.set(k.id, k.name);
        for (const c of document.querySelectorAll(`td[data-key="${key}"]`))
          fill(c, names.get(key) ?? key);
      },
      () => {},
    );
  };
}

/** A request id as typed or pasted (`X-Request-Id: req_...`, a quoted id), else the text. */
function requestIdOf(text) {
  return /req_[0-9A-Za-z]+/.exec(text)?.[0] ?? text.trim();
}

function filtersBar(ctx, filters, onChange, find) {
  const status = h(
    'select',
    { name: 'status_class', onchange: (e) => onChange({ status_class: e.target.value }) },
    ['', '2xx', '4xx', '5xx', 'dropped'].map((v) => h('option', { value: v }, v || 'any status')),
  );
  status.value = filters.status_class ?? '';
  const text = (name, placeholder) =>
    h('input', {
      name,
      placeholder,
      value: filters[name] ?? '',
      list: name === 'operation' ? 'operations' : undefined,
      onchange: (e) => onChange({ [name]: e.target.value.trim() }),
    });
  const ops = h('datalist', { id: 'operations' });
  control('GET', '/coverage').then((c) =>
    fill(
      ops,
      c.operations.map((o) => h('option', { value: o.operation })),
    ),
  );
  return h(
    'div',
    { class: 'filters' },
    h('span', { class: 'muted' }, ctx.account ? `account ${ctx.account}` : 'all accounts'),
    status,
    text('operation', 'operation'),
    ops,
    text('code', 'error code'),
    h(
      'form',
      {
        class: 'find',
        onsubmit: (e) => {
          e.preventDefault();
          const id = requestIdOf(e.target.elements.request_id.value);
          if (id) find(id);
        },
      },
      h('input', {
        name: 'request_id',
        placeholder: 'X-Request-Id: req_...',
        size: 30,
        title: 'Show the call with this request id',
      }),
      h('button', { type: 'submit' }, 'Find'),
    ),
  );
}

/** The query of the chosen filters. */
function query(ctx, filters, more = {}) {
  const q = new URLSearchParams();
  if (ctx.account) q.set('account', ctx.account);
  for (const [k, v] of Object.entries({ ...filters, ...more })) if (v) q.set(k, v);
  return q.toString();
}

export async function render(root, ctx) {
  const filters = {};
  const detail = h('aside', { class: 'detail' }, h('p', { class: 'muted' }, 'Choose a request.'));
  const body = h('tbody');
  const more = h('button', { class: 'more', hidden: true }, 'Older');
  const out = h('div');
  const keyName = keyNames();
  let stop = () => {};
  // Entries streamed while a first page loads: put back on top if that page predates them.
  let streamed = [];

  const row = (e) => {
    const keyCell = h('td', { 'data-key': e.key_id ?? '' }, e.key_id ?? '');
    keyName(e, keyCell);
    const account = ctx.accounts.find((a) => a.id === e.account_id);
    return h(
      'tr',
      { 'data-id': e.request_id, class: 'clickable', onclick: () => show(e.request_id) },
      h('td', { title: time(e.at) }, time(e.at).slice(5)),
      h('td', { title: e.account_id ?? '' }, account?.name ?? e.account_id ?? ''),
      keyCell,
      h('td', { class: 'path', title: `${e.method} ${e.path}` }, `${e.method} ${e.path}`),
      h('td', null, statusBadge(e.status)),
      h('td', null, e.code ?? ''),
      h('td', { title: e.fault_id ?? '' }, e.fault_id ? `\u2026${e.fault_id.slice(-6)}` : ''),
      h('td', { class: 'num wall' }, `${e.duration_ms.toFixed(1)} ms`),
    );
  };
  const show = async (id) => {
    for (const tr of body.querySelectorAll('tr.selected')) tr.classList.remove('selected');
    const tr = body.querySelector(`tr[data-id="${CSS.escape(id)}"]`);
    tr?.classList.add('selected');
    tr?.scrollIntoView({ block: 'nearest' });
    const entry = await attempt(detail, () =>
      control('GET', `/requests/${encodeURIComponent(id)}`),
    );
    if (entry) renderDetail(detail, entry, ctx);
  };
  const loadPage = async (after) => {
    if (!after) streamed = [];
    const q = query(ctx, filters, { order: 'newest', limit: String(PAGE), after });
    const page = await attempt(out, () => control('GET', `/requests?${q}`));
    if (!page) return;
    if (!after) {
      const listed = new Set(page.data.map((e) => e.request_id));
      fill(body, streamed.filter((e) => !listed.has(e.request_id)).map(row));
    }
    body.append(...page.data.map(row));
    more.hidden = !page.has_more;
  };
  const follow = () => {
    stop();
    stop = stream(
      `/stream/requests?${query(ctx, filters)}`,
      (event, data) => {
        if (event === 'request') {
          streamed.unshift(data);
          streamed.length = Math.min(streamed.length, MAX_ROWS);
          body.prepend(row(data));
          while (body.rows.length > MAX_ROWS) body.lastElementChild.remove();
        } else if (event === 'open' || event === 'removed' || event === 'overflow') loadPage();
      },
      ctx.setLive,
    );
  };
  more.addEventListener('click', () => loadPage(body.lastElementChild?.dataset.id));
  const bar = filtersBar(
    ctx,
    filters,
    (change) => {
      Object.assign(filters, change);
      follow();
    },
    show,
  );
  const headers = ['virtual time', 'account', 'key', 'call', 'status', 'code', 'fault', 'took'];
  const list = table(headers, [], { class: 'requests' });
  list.tBodies[0].replaceWith(body);
  fill(
    root,
    bar,
    out,
    h('div', { class: 'split' }, h('div', { class: 'scroll' }, list, more), detail),
  );
  follow();
  return () => stop();
}
