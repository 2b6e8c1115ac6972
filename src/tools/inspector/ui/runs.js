// Runs: the chosen account's runs of every kind, newest first, a page at a time
// (`GET /_control/accounts/{id}/runs`), the chosen run's timeline, log and files
// (`GET /_control/runs/{id}`), and a form that seeds a run (`POST .../runs`). A clock moves from
// anywhere (a test, a realtime clock), so both are read again every second while the view is
// open, and redrawn where they changed.
import { control } from './api.js';
import { attempt, fill, h, runBadge, table, time } from './dom.js';
import { renderRun } from './run-detail.js';
import { seedForm } from './seed-form.js';

const PAGE = 50;
const REFRESH_MS = 1000;

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
  // What the list and the pane show, as read: a read that finds the same redraws nothing.
  let listed = '';
  let detailed = '';

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
  /** A page after `after`, or (without) the first `limit` runs in place of those shown. */
  const load = async (after, limit = PAGE) => {
    const q = new URLSearchParams({ limit: String(limit) });
    for (const [k, v] of Object.entries({ ...filters, after })) if (v) q.set(k, v);
    const page = await attempt(out, () => control('GET', `/accounts/${account}/runs?${q}`));
    if (!page) return;
    const text = JSON.stringify(page);
    if (!after && text === listed) return;
    if (!after) {
      listed = text;
      fill(body);
    }
    body.append(...page.data.map(row));
    more.hidden = !page.has_more;
  };
  /** The list (as many runs as it shows) and the chosen run again. */
  const refresh = async () => {
    await load(undefined, Math.min(1000, Math.max(PAGE, body.rows.length)));
    if (chosen) await show(chosen, true);
  };
  /** The run in the pane; `again`: the same one read again, redrawn only if it changed. */
  const show = async (id, again = false) => {
    chosen = id;
    for (const tr of body.querySelectorAll('tr'))
      tr.classList.toggle('selected', tr.dataset.id === id);
    // Read again quietly: `attempt` would empty the pane first.
    const read = () => control('GET', `/runs/${id}`);
    const run = again ? await read().catch(() => null) : await attempt(detail, read);
    if (!run || chosen !== id) return;
    const text = JSON.stringify(run);
    if (again && text === detailed) return;
    detailed = text;
    // Redrawn in place: what was open and where the pane was scrolled stay.
    const open = detail.querySelector('details')?.open ?? false;
    const scrolled = detail.scrollTop;
    renderRun(detail, run, refresh);
    const details = detail.querySelector('details');
    if (details) details.open = again && open;
    if (again) detail.scrollTop = scrolled;
  };
  more.addEventListener('click', () => load(body.lastElementChild?.dataset.id));

  const select = (name, options) =>
    h(
      'select',
      {
        name,
        onchange: (e) => {
          filters[name] = e.target.value;
          listed = '';
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
  // One read at a time: a slow answer is not overtaken by the next tick; none in a hidden tab.
  let reading = false;
  const timer = setInterval(async () => {
    if (reading || document.hidden) return;
    reading = true;
    await refresh().catch(() => {});
    reading = false;
  }, REFRESH_MS);
  return () => clearInterval(timer);
}
