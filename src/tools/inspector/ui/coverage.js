// Coverage: `GET /_control/coverage` as a table, an operation per row with the outcomes (error
// codes) it can answer grouped by status, seen (with the count) or never seen, documented or
// inferred. Read again as calls arrive (the journal's stream); downloadable
// as Markdown (`?format=markdown`). Beside it, the error-handling lab (docs/error-handling.md):
// each fault sweep's matrix (`GET /_control/sweeps`) and, for an account, its client report
// (`GET /_control/client_report`).
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

const OUTCOME_CLASS = {
  recovered: 'seen',
  gave_up: 'never',
  duplicated_write: 'never',
  not_reached: 'unlisted',
  unknown: 'unlisted',
};

/** A sweep: an operation per row, a cell per fault with what the client did next. */
function sweepTable(sweep) {
  const head = h(
    'tr',
    null,
    h('th', null, 'operation'),
    sweep.faults.map((f) => h('th', null, f)),
  );
  const rows = sweep.matrix.map((row) =>
    h(
      'tr',
      { 'data-operation': row.operation },
      h('th', { class: 'op' }, h('code', null, row.operation)),
      row.cells.map((c) =>
        h(
          'td',
          { 'data-fault': c.fault, 'data-outcome': c.outcome, title: c.request_id ?? '' },
          h(
            'span',
            { class: `chip ${OUTCOME_CLASS[c.outcome] ?? ''}` },
            c.outcome.replace('_', ' '),
          ),
        ),
      ),
    ),
  );
  const s = sweep.summary;
  return h(
    'div',
    { class: 'sweep', 'data-sweep': sweep.id },
    h(
      'p',
      null,
      h('b', null, `Sweep ${sweep.id}`),
      ` (${sweep.account ?? 'all accounts'}): ${s.met} of ${s.cells} met, ${s.recovered} recovered, ${s.gave_up} gave up, ${s.duplicated_write} duplicated writes`,
    ),
    h(
      'div',
      { class: 'scroll' },
      h('table', { class: 'matrix' }, h('thead', null, head), h('tbody', null, rows)),
    ),
  );
}

const VERDICT_CLASS = { pass: 'seen', fail: 'never', not_judged: 'unlisted', info: 'unlisted' };

/** A client report: per key, a row per rule with its verdict, summary and failing evidence. */
function clientReport(report) {
  const s = report.summary;
  return h(
    'div',
    { class: 'client-report' },
    h(
      'p',
      null,
      `${s.keys} key${s.keys === 1 ? '' : 's'}, ${s.calls} calls: ${s.passed} passed, ${s.failed} failed, ${s.not_judged} not judged, ${s.info} reported.`,
    ),
    report.keys.map((k) =>
      h(
        'div',
        { 'data-key': k.key },
        h(
          'p',
          null,
          h('b', null, `Key ${k.key}`),
          ` (${k.calls} call${k.calls === 1 ? '' : 's'}, ${k.retries} retr${k.retries === 1 ? 'y' : 'ies'})`,
        ),
        h(
          'table',
          { class: 'matrix' },
          h(
            'tbody',
            null,
            k.findings.map((f) =>
              h(
                'tr',
                { 'data-rule': f.rule, 'data-verdict': f.verdict },
                h('th', { class: 'op' }, h('code', null, f.rule)),
                h(
                  'td',
                  null,
                  h(
                    'span',
                    { class: `chip ${VERDICT_CLASS[f.verdict]}` },
                    f.verdict.replace('_', ' '),
                  ),
                ),
                h(
                  'td',
                  null,
                  f.summary,
                  f.verdict === 'fail'
                    ? h(
                        'ul',
                        null,
                        f.cases
                          .filter((c) => c.verdict === 'fail')
                          .map((c) =>
                            h(
                              'li',
                              null,
                              c.note,
                              ' ',
                              h('small', null, c.requests.map((r) => r.request_id).join(', ')),
                            ),
                          ),
                      )
                    : null,
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The sweeps of the view's account (all of them without one) and its client report. */
async function lab(ctx) {
  const sweeps = (await control('GET', '/sweeps')).data.filter(
    (sw) => !ctx.account || sw.account === null || sw.account === ctx.account,
  );
  const report = ctx.account
    ? await control('GET', `/client_report?account=${encodeURIComponent(ctx.account)}`)
    : null;
  return h(
    'div',
    null,
    h('h3', null, 'Fault sweeps'),
    sweeps.length
      ? sweeps.map(sweepTable)
      : h('p', { class: 'muted' }, 'No sweep: POST /_control/sweeps arms one.'),
    h('h3', null, 'Client report'),
    report
      ? clientReport(report)
      : h('p', { class: 'muted' }, 'Choose an account to see its client report.'),
  );
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
  const labBox = h('div', { class: 'lab' });
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
    const labView = await attempt(out, () => lab(ctx));
    if (labView) fill(labBox, labView);
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
    labBox,
    h('h3', null, 'Coverage'),
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
