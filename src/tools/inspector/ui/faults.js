// Faults: the rules in match order with their counters (`GET /_control/faults`), kept current as
// calls arrive, each with its edit and delete (`DELETE .../{id}`), and the form that adds a rule
// (fault-form.js), for the account chosen at the top unless it is changed there.
import { control, stream } from './api.js';
import { attempt, debounce, fill, h, table, time } from './dom.js';
import { ruleForm } from './fault-form.js';

/** A rule: its id, then what it matches, a line each. */
function describeRule(r) {
  const match = Object.entries(r.match);
  return [
    h('code', { class: 'rule-id' }, r.id),
    match.length
      ? match.map(([k, v]) => h('div', null, h('span', { class: 'muted' }, k), ' ', v))
      : h('div', null, 'every product call'),
  ];
}
function describeRespond(r) {
  if ('drop' in r) return 'drop the connection';
  if ('delay_ms' in r) return `delay ${r.delay_ms} ms`;
  return [r.status, r.code, r.retry_after === undefined ? null : `retry after ${r.retry_after} s`]
    .filter((x) => x !== null && x !== undefined)
    .join(' ');
}

const given = (v) => v !== null && v !== undefined;

/** When a rule answers: how many times, after how many skipped, with what probability. */
function describeWhen(r) {
  return [
    given(r.times) ? `${r.times} time${r.times === 1 ? '' : 's'}` : 'every time',
    r.skip ? `after skipping ${r.skip}` : null,
    given(r.probability) ? `probability ${r.probability}` : null,
  ]
    .filter(Boolean)
    .join(', ');
}

export async function render(root, ctx) {
  const out = h('div');
  const draw = async (editing) => {
    const rules = await attempt(out, () => control('GET', '/faults'));
    if (!rules) return fill(root, out);
    const remove = async (id) =>
      (await attempt(out, () => control('DELETE', `/faults/${id}`))) && draw();
    const counter = (attr, r, v, label) =>
      h('div', { class: 'nowrap' }, `${label} `, h('span', { [`data-${attr}`]: r.id }, v));
    const rows = rules.data.map((r) => [
      describeRule(r),
      describeRespond(r.respond),
      describeWhen(r),
      [
        counter('hits', r, r.hits, 'hits'),
        counter('skipped', r, r.skipped, 'skipped'),
        given(r.remaining) ? counter('remaining', r, r.remaining, 'left') : null,
      ],
      time(r.created_at),
      h(
        'span',
        null,
        h('button', { onclick: () => draw(r) }, 'Edit'),
        h('button', { onclick: () => remove(r.id) }, 'Delete'),
      ),
    ]);
    fill(
      root,
      out,
      rows.length
        ? table(['rule and what it matches', 'answer', 'when', 'counters', 'created', ''], rows, {
            class: 'faults',
          })
        : h('p', { class: 'muted' }, 'No fault rules: every call is answered normally.'),
      ruleForm(editing, ctx.account, () => draw()),
    );
  };
  /** After calls: the counters again, leaving a form being filled in alone. */
  const counters = async () => {
    const rules = await control('GET', '/faults').catch(() => null);
    for (const r of rules?.data ?? [])
      for (const [attr, v] of [
        ['hits', r.hits],
        ['skipped', r.skipped],
        ['remaining', r.remaining],
      ])
        for (const el of root.querySelectorAll(`[data-${attr}="${r.id}"]`))
          el.textContent = String(v);
  };
  await draw();
  const later = debounce(counters, 300);
  // On `open` too: calls made while the stream was (re)connecting are counted.
  return stream('/stream/requests', (event) => event !== 'removed' && later(), ctx.setLive);
}
