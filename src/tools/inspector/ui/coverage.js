// Coverage: `GET /_control/coverage` as a table, an operation per row with the outcomes (error
// codes) it can answer grouped by status, seen (with the count) or never seen, documented or
// inferred. Read again as calls arrive (the journal's stream); downloadable
// as Markdown (`?format=markdown`).
import { control, download, stream } from './api.js';
import { attempt, debounce, fill, h } from './dom.js';

/** An outcome: its code (`ok` for a success) and how many calls got it, whole (never broken). */
function chip(o) {
  const seen = o.seen > 0;
  return h(
    'span',
    {
      class: `chip ${seen ? 'seen' : 'never'} ${o.documented ? 'documented' : 'inferred'}`,
      title: `${o.status} ${o.code ?? 'ok'}: ${seen ? `seen ${o.seen} times` : 'never seen'}, ${o.documented ? 'documented' : 'inferred'}`,
      'data-outcome': `${o.status} ${o.code ?? ''}`.trim(),
      'data-seen': String(o.seen),
    },
    o.code ?? 'ok',
    h('b', null, ` \u00d7${o.seen}`),
  );
}

/** An operation's outcomes by status, each status a group that wraps as a whole where it can. */
function outcomes(op, onlyUnseen) {
  const byStatus = new Map();
  for (const o of op.outcomes) {
    if (onlyUnseen && o.seen > 0) continue;
    if (!byStatus.has(o.status)) byStatus.set(o.status, []);
    byStatus.get(o.status).push(o);
  }
  const groups = [...byStatus].sort(([a], [b]) => a - b);
  return h(
    'td',
    { class: 'outcomes' },
    groups.map(([status, list]) =>
      h(
        'span',
        { class: 'group', 'data-status': String(status) },
        h('span', { class: 'status' }, status),
        list.map(chip),
      ),
    ),
    op.unlisted.length
      ? h(
          'span',
          { class: 'group' },
          h('span', { class: 'status' }, 'not listed'),
          op.unlisted.map((u) =>
            h(
              'span',
              { class: 'chip unlisted', title: 'seen, not listed by the operation' },
              `${u.status ?? 'dropped'} ${u.code ?? ''}`.trim(),
              h('b', null, ` \u00d7${u.seen}`),
            ),
          ),
        )
      : null,
  );
}

/** An operation per row, its outcomes grouped by status: it fits any width without cutting. */
function matrix(report, onlyUnseen, search) {
  const ops = report.operations.filter(
    (op) =>
      (!search || `${op.operation} ${op.route}`.toLowerCase().includes(search)) &&
      (!onlyUnseen || op.outcomes.some((o) => o.seen === 0)),
  );
  const head = h(
    'tr',
    null,
    h('th', null, 'operation'),
    h('th', { class: 'num' }, 'calls'),
    h('th', null, 'outcomes by status'),
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
      outcomes(op, onlyUnseen),
    ),
  );
  return h('table', { class: 'matrix' }, h('thead', null, head), h('tbody', null, rows));
}

/** What the colours and the figures mean, with made-up chips that are plainly examples. */
function legend() {
  const sample = (cls, text, count) =>
    h('span', { class: `chip ${cls}` }, text, h('b', null, ` \u00d7${count}`));
  return h(
    'p',
    { class: 'legend' },
    sample('seen documented', 'code', 'n'),
    ' seen n times ',
    sample('never documented', 'code', 0),
    ' never seen ',
    sample('never inferred', 'code', 0),
    ' inferred: the API document does not name it ',
    sample('unlisted', 'status code', 'n'),
    ' seen, but not listed by the operation',
  );
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
      `${s.exercised} of ${s.operations} operations called, ${s.seen} of ${s.outcomes} outcomes seen, ${s.calls} call${s.calls === 1 ? '' : 's'} (${s.unmatched_calls} to no operation)${ctx.account ? ` by ${ctx.account}` : ''}.`,
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
    legend(),
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
