// Coverage: `GET /_control/coverage` as a matrix, operations by the statuses they can answer;
// each cell lists the outcomes (error codes) of that status, seen (with the count) or never
// seen, documented or inferred. Read again as calls arrive (the journal's stream); downloadable
// as Markdown (`?format=markdown`).
import { control, download, stream } from './api.js';
import { attempt, debounce, fill, h } from './dom.js';

function chip(o) {
  const seen = o.seen > 0;
  return h(
    'span',
    {
      class: `chip ${seen ? 'seen' : 'never'} ${o.documented ? 'documented' : 'inferred'}`,
      title: `${o.status} ${o.code ?? ''}: ${seen ? `seen ${o.seen}` : 'never seen'}, ${o.documented ? 'documented' : 'inferred'}`,
      'data-outcome': `${o.status} ${o.code ?? ''}`.trim(),
      'data-seen': String(o.seen),
    },
    // A long code may break after its underscores, never inside a word.
    (o.code ?? 'ok').split('_').flatMap((part, i) => (i === 0 ? [part] : ['_', h('wbr'), part])),
    h('b', null, seen ? ` ${o.seen}` : ' 0'),
  );
}

function matrix(report, onlyUnseen, search) {
  const ops = report.operations.filter(
    (op) =>
      (!search || `${op.operation} ${op.route}`.toLowerCase().includes(search)) &&
      (!onlyUnseen || op.outcomes.some((o) => o.seen === 0)),
  );
  // The statuses of the operations shown: one column each.
  const statuses = [...new Set(ops.flatMap((op) => op.outcomes.map((o) => o.status)))].sort(
    (a, b) => a - b,
  );
  const head = h(
    'tr',
    null,
    h('th', null, 'operation'),
    h('th', null, 'calls'),
    statuses.map((s) => h('th', null, s)),
    h('th', null, 'other'),
  );
  const rows = ops.map((op) =>
    h(
      'tr',
      { 'data-operation': op.operation },
      h(
        'th',
        { class: 'op', title: op.route },
        h('code', null, op.operation),
        h('br'),
        h('small', null, `${op.method} ${op.route}`),
      ),
      h('td', { class: 'num' }, op.calls),
      statuses.map((s) => {
        const here = op.outcomes.filter((o) => o.status === s && (!onlyUnseen || o.seen === 0));
        return h('td', { class: here.length ? 'cell' : 'cell empty' }, here.map(chip));
      }),
      h(
        'td',
        { class: 'cell' },
        op.unlisted.map((u) =>
          h(
            'span',
            { class: 'chip unlisted', title: 'seen, not listed by the operation' },
            `${u.status ?? 'dropped'} ${u.code ?? ''} ${u.seen}`,
          ),
        ),
      ),
    ),
  );
  return h('table', { class: 'matrix' }, h('thead', null, head), h('tbody', null, rows));
}

export async function render(root, ctx) {
  const out = h('div');
  const summary = h('p');
  const box = h('div', { class: 'scroll' });
  const unseen = h('input', { type: 'checkbox', name: 'unseen', onchange: () => draw() });
  const search = h('input', {
    name: 'search',
    placeholder: 'filter operations',
    oninput: () => draw(),
  });
  const query = ctx.account ? `?account=${ctx.account}` : '';
  let report = null;

  const draw = () => {
    if (!report) return;
    const s = report.summary;
    fill(
      summary,
      `${s.exercised} of ${s.operations} operations called, ${s.seen} of ${s.outcomes} outcomes seen, ${s.calls} calls (${s.unmatched_calls} to no operation)${ctx.account ? ` by ${ctx.account}` : ''}.`,
    );
    fill(box, matrix(report, unseen.checked, search.value.trim().toLowerCase()));
  };
  const load = async () => {
    report = (await attempt(out, () => control('GET', `/coverage${query}`))) ?? report;
    draw();
  };
  const markdown = () =>
    attempt(out, () =>
      download(`/coverage${query ? `${query}&` : '?'}format=markdown`, 'coverage.md'),
    );
  fill(
    root,
    h(
      'div',
      { class: 'filters' },
      h('span', { class: 'muted' }, ctx.account ? `account ${ctx.account}` : 'all accounts'),
      search,
      h('label', null, unseen, ' only outcomes never seen'),
      h('button', { onclick: load }, 'Refresh'),
      h('button', { onclick: markdown }, 'Download Markdown'),
    ),
    h(
      'p',
      { class: 'legend' },
      chip({ status: 200, code: null, seen: 3, documented: true }),
      ' seen 3 times ',
      chip({ status: 409, code: 'not_resumable', seen: 0, documented: true }),
      ' never seen (red) ',
      chip({ status: 409, code: 'idempotency_key_reused', seen: 0, documented: false }),
      ' inferred (dashed): the API document does not name it',
    ),
    out,
    summary,
    box,
  );
  await load();
  const later = debounce(load, 300);
  const follow = ctx.account ? `?account=${ctx.account}` : '';
  return stream(
    `/stream/requests${follow}`,
    // Every event, `open` included: calls made while the stream was (re)connecting count too.
    () => later(),
    ctx.setLive,
  );
}
