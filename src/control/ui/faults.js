// Faults: the rules in match order with their counters (`GET /_control/faults`), kept current as
// calls arrive, each with its edit and delete (`DELETE .../{id}`), and the form that adds a rule
// (fault-form.js).
import { control, stream } from './api.js';
import { attempt, debounce, fill, h, table, time } from './dom.js';
import { ruleForm } from './fault-form.js';

const describeMatch = (m) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'every product call';
function describeRespond(r) {
  if ('drop' in r) return 'drop the connection';
  if ('delay_ms' in r) return `delay ${r.delay_ms} ms`;
  return [r.status, r.code, r.retry_after === undefined ? null : `retry after ${r.retry_after} s`]
    .filter((x) => x !== null && x !== undefined)
    .join(' ');
}

export async function render(root, ctx) {
  const out = h('div');
  const draw = async (editing) => {
    const rules = await attempt(out, () => control('GET', '/faults'));
    if (!rules) return fill(root, out);
    const remove = async (id) =>
      (await attempt(out, () => control('DELETE', `/faults/${id}`))) && draw();
    const rows = rules.data.map((r) => [
      h('code', null, r.id),
      describeMatch(r.match),
      describeRespond(r.respond),
      r.times ?? 'always',
      r.skip,
      r.probability ?? 1,
      h('span', { 'data-hits': r.id }, r.hits),
      h('span', { 'data-skipped': r.id }, r.skipped),
      h('span', { 'data-remaining': r.id }, r.remaining ?? ''),
      time(r.created_at),
      h(
        'span',
        { class: 'nowrap' },
        h('button', { onclick: () => draw(r) }, 'Edit'),
        h('button', { onclick: () => remove(r.id) }, 'Delete'),
      ),
    ]);
    fill(
      root,
      out,
      rows.length
        ? table(
            [
              'id',
              'match',
              'answer',
              'times',
              'skip',
              'probability',
              'hits',
              'skipped',
              'remaining',
              'created',
              '',
            ],
            rows,
            { class: 'faults' },
          )
        : h('p', { class: 'muted' }, 'No fault rules: every call is answered normally.'),
      ruleForm(editing, () => draw()),
    );
  };
  /** After calls: the counters again, leaving a form being filled in alone. */
  const counters = async () => {
    const rules = await control('GET', '/faults').catch(() => null);
    for (const r of rules?.data ?? [])
      for (const [attr, v] of [
        ['hits', r.hits],
        ['skipped', r.skipped],
        ['remaining', r.remaining ?? ''],
      ])
        for (const el of root.querySelectorAll(`[data-${attr}="${r.id}"]`))
          el.textContent = String(v);
  };
  await draw();
  const later = debounce(counters, 300);
  // On `open` too: calls made while the stream was (re)connecting are counted.
  return stream('/stream/requests', (event) => event !== 'removed' && later(), ctx.setLive);
}
