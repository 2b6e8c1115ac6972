// Seed a run of any kind (`POST /_control/accounts/{id}/runs`): on the clock, succeeding or
// failing with one of the kind's failure codes at one of its phases, or in a fixed state. The
// kind's create body starts as the example of its create operation (`GET /_control/kinds`); the
// emulator validates it, and its error names the field.
import { control } from './api.js';
import { attempt, field, fill, h } from './dom.js';

const FIXED = ['queued', 'processing', 'canceling', 'succeeded', 'failed', 'canceled'];

/** The seed body the form describes. */
function seedBody(kind, createText, state, failure, phase) {
  const create = createText.trim() ? JSON.parse(createText) : {};
  const body = { kind, ...create };
  if (state !== 'clock') return { ...body, status: state, ...(phase ? { phase } : {}) };
  if (failure) body.outcomes = [{ fail: failure, ...(phase ? { at: phase } : {}) }];
  return body;
}

/** The form; `seeded(run)` is called with the run the emulator made. */
export function seedForm(account, kinds, seeded) {
  const out = h('div');
  const kind = h(
    'select',
    { name: 'kind' },
    kinds.map((k) => h('option', { value: k.kind }, k.kind)),
  );
  const state = h(
    'select',
    { name: 'status' },
    h('option', { value: 'clock' }, 'on the clock'),
    FIXED.map((s) => h('option', { value: s }, `fixed: ${s}`)),
  );
  const failure = h('select', { name: 'fail' });
  const phase = h('select', { name: 'phase' });
  const create = h('textarea', { name: 'body', rows: 5, spellcheck: false });
  const kindChanged = () => {
    const k = kinds.find((x) => x.kind === kind.value);
    fill(
      failure,
      h('option', { value: '' }, 'succeeds'),
      k.failure_codes.map((c) => h('option', { value: c }, `fails: ${c}`)),
    );
    fill(
      phase,
      h('option', { value: '' }, '(default)'),
      k.phases.map((p) => h('option', { value: p }, p)),
    );
    create.value = JSON.stringify(k.example ?? {}, null, 2);
  };
  kind.addEventListener('change', kindChanged);
  // The API document's first area.
  if (kinds.some((k) => k.kind === 'evaluation')) kind.value = 'evaluation';
  kindChanged();
  const submit = async (event) => {
    event.preventDefault();
    let body;
    try {
      body = seedBody(kind.value, create.value, state.value, failure.value, phase.value);
    } catch (err) {
      fill(out, h('div', { class: 'error' }, `The create body is not JSON: ${err.message}`));
      return;
    }
    const run = await attempt(out, () => control('POST', `/accounts/${account}/runs`, body));
    if (run) seeded(run);
  };
  return h(
    'form',
    { class: 'seed', onsubmit: submit },
    h('h3', null, 'Seed a run'),
    h(
      'div',
      { class: 'row' },
      field('kind', kind),
      field('state', state),
      field('outcome', failure, 'on the clock'),
      field('phase', phase, 'where it fails, or its fixed phase'),
    ),
    h(
      'label',
      { class: 'field wide' },
      h('span', null, 'create body (as POST /v1/<kind> takes it)'),
      create,
    ),
    out,
    h('button', { type: 'submit', class: 'primary' }, 'Seed'),
  );
}
