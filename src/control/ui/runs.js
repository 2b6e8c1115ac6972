// Runs: the chosen account's runs of every kind, newest first, a page at a time
// (`GET /_control/accounts/{id}/runs`), the chosen run's timeline, log and files
// (`GET /_control/runs/{id}`), and a form that seeds a run (`POST .../runs`).
import { control } from './api.js';
import { attempt, fill, h, runBadge, table, time } from './dom.js';
import { renderRun } from './run-detail.js';
import { seedForm } from './seed-form.js';

const PAGE = 50;

function progressBar(progress) {
  const pct = Math.round((progress ?? 0) * 100);
  return h(
    'span',
    { class: 'progress', title: `${pct}%` },
    h('meter', { min: 0, max: 1, value: progress ?? 0 }),
    ` ${pct}%`,
  );
}

export async function render(root, ctx) {
  const account = ctx.accountOrDefault;
  if (!account) return fill(root, h('p', { class: 'muted' }, 'No account yet.'));
  const kinds = (await control('GET', '/kinds')).data;
  const filters = { kind: '', status: '' };
  const out = h('div');
  const body = h('tbody');
  const more = h('button', { class: 'more', hidden: true }, 'Older');
  const detail = h('aside', { class: 'detail' }, h('p', { class: 'muted' }, 'Choose a run.'));
  let chosen = null;

  const row = (r) =>
    h(
      'tr',
      {
        'data-id': r.id,
        class: r.id === chosen ? 'clickable selected' : 'clickable',
        onclick: () => show(r.id),
      },
      h('td', null, h('code', null, r.id)),
      h('td', null, r.object),
      h('td', null, runBadge(r.status)),
      h('td', { 'data-phase': '' }, r.phase ?? ''),
      h('td', null, progressBar(r.progress)),
      h('td', null, time(r.created_at)),
      h('td', null, time(r.next_transition_at)),
    );
  const load = async (after) => {
    const q = new URLSearchParams({ limit: String(PAGE) });
    for (const [k, v] of Object.entries({ ...filters, after })) if (v) q.set(k, v);
    const page = await attempt(out, () => control('GET', `/accounts/${account}/runs?${q}`));
    if (!page) return;
    if (!after) fill(body);
    body.append(...page.data.map(row));
    more.hidden = !page.has_more;
  };
  /** The list and the chosen run again, after the clock moved or a run was seeded. */
  const refresh = async () => {
    await load();
    if (chosen) await show(chosen);
  };
  const show = async (id) => {
    chosen = id;
    for (const tr of body.querySelectorAll('tr'))
      tr.classList.toggle('selected', tr.dataset.id === id);
    const run = await attempt(detail, () => control('GET', `/runs/${id}`));
    if (run) renderRun(detail, run, refresh);
  };
  more.addEventListener('click', () => load(body.lastElementChild?.dataset.id));

  const select = (name, options) =>
    h(
      'select',
      {
        name,
        onchange: (e) => {
          filters[name] = e.target.value;
          load();
        },
      },
      options.map(([value, label]) => h('option', { value }, label)),
    );
  const statuses = ['queued', 'processing', 'canceling', 'succeeded', 'failed', 'canceled'];
  const bar = h(
    'div',
    { class: 'filters' },
    h('span', { class: 'muted' }, `account ${account}`),
    select('kind', [['', 'every kind'], ...kinds.map((k) => [k.kind, k.kind])]),
    select('status', [['', 'any status'], ...statuses.map((s) => [s, s])]),
    h('button', { onclick: refresh }, 'Refresh'),
  );
  const list = table(
    ['id', 'kind', 'status', 'phase', 'progress', 'created', 'next transition'],
    [],
    { class: 'runs' },
  );
  list.tBodies[0].replaceWith(body);
  const seeded = async (run) => {
    chosen = run.id;
    await refresh();
  };
  fill(
    root,
    bar,
    out,
    h(
      'div',
      { class: 'split' },
      h('div', { class: 'scroll' }, list, more, seedForm(account, kinds, seeded)),
      detail,
    ),
  );
  await load();
}
