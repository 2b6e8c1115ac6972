// The form of a fault rule: it adds (`POST /_control/faults`) or changes (`PUT .../{id}`) one. It
// sends what is filled in, and the emulator validates it as it validates any call: its error names
// the field (`param`), which the form marks.
import { control } from './api.js';
import { errorBox, field, fill, h } from './dom.js';

const STATUSES = [400, 401, 402, 403, 404, 409, 413, 429, 500, 502, 503];
const NUMBERS = new Set([
  'respond.status',
  'respond.retry_after',
  'respond.delay_ms',
  'times',
  'skip',
  'probability',
]);

/** A value of the form as the API takes it: numbers as numbers, empty as absent. */
function value(name, raw) {
  const text = raw.trim();
  if (text === '') return undefined;
  return NUMBERS.has(name) && !Number.isNaN(Number(text)) ? Number(text) : text;
}

/** The rule the form describes (its `respond` by the chosen kind of answer). */
function ruleOf(form) {
  const get = (name) => value(name, form.elements[name].value);
  const kind = form.elements.respond_kind.value;
  const respond =
    kind === 'drop'
      ? { drop: true }
      : kind === 'delay'
        ? { delay_ms: get('respond.delay_ms') }
        : {
            status: get('respond.status'),
            code: get('respond.code'),
            message: get('respond.message'),
            retry_after: get('respond.retry_after'),
          };
  const match = {};
  for (const k of ['method', 'route', 'operation', 'account', 'key']) match[k] = get(`match.${k}`);
  return {
    match,
    respond,
    times: get('times'),
    skip: get('skip'),
    probability: get('probability'),
  };
}

/**
 * The form, holding the rule `editing`, or a new rule for `account` (the one chosen at the top;
 * none: every account); `done()` once the emulator took it.
 */
export function ruleForm(editing, account, done) {
  const out = h('div');
  const input = (name, attrs = {}) => h('input', { name, ...attrs });
  const status = h(
    'select',
    { name: 'respond.status' },
    STATUSES.map((s) => h('option', { value: String(s) }, s)),
  );
  const kind = h(
    'select',
    { name: 'respond_kind' },
    ['error', 'delay', 'drop'].map((k) => h('option', { value: k }, k)),
  );
  const form = h(
    'form',
    // No browser validation: every value goes to the emulator, whose answer says what is wrong.
    { class: 'fault-form', novalidate: true, onsubmit: (e) => submit(e) },
    h('h3', null, editing ? `Change ${editing.id}` : 'Add a rule'),
    h(
      'fieldset',
      null,
      h('legend', null, 'Match (all that are given)'),
      field('method', input('match.method', { placeholder: 'GET' })),
      field(
        'route',
        input('match.route', { placeholder: '/v1/evaluations/{run_id}/resume', size: 30 }),
      ),
      field('operation', input('match.operation', { placeholder: 'resumeEvaluation' })),
      field(
        'account',
        input('match.account', { size: 32, placeholder: 'every account' }),
        account && !editing ? 'the account chosen at the top' : 'empty: every account',
      ),
      field('key', input('match.key')),
    ),
    h(
      'fieldset',
      null,
      h('legend', null, 'Answer'),
      field('kind', kind),
      field('status', status),
      field('code', input('respond.code', { placeholder: 'default for the status' })),
      field('message', input('respond.message')),
      field(
        'retry after (s)',
        input('respond.retry_after', { type: 'number', min: '0', max: '86400' }),
      ),
      field('delay (ms)', input('respond.delay_ms', { type: 'number', min: '0', max: '60000' })),
    ),
    h(
      'fieldset',
      null,
      h('legend', null, 'When'),
      field('times', input('times', { type: 'number', min: '1' }), 'empty: every time'),
      field('skip', input('skip', { type: 'number', min: '0' })),
      field(
        'probability',
        input('probability', { type: 'number', min: '0', max: '1', step: 'any' }),
      ),
    ),
    out,
    h('button', { type: 'submit', class: 'primary' }, editing ? 'Save' : 'Add rule'),
    editing ? h('button', { type: 'button', onclick: () => done() }, 'Cancel') : null,
  );
  if (!editing && account) form.elements['match.account'].value = account;
  if (editing) {
    const r = editing;
    for (const [k, v] of Object.entries(r.match)) form.elements[`match.${k}`].value = v;
    kind.value = 'drop' in r.respond ? 'drop' : 'delay_ms' in r.respond ? 'delay' : 'error';
    for (const [k, v] of Object.entries(r.respond))
      if (form.elements[`respond.${k}`]) form.elements[`respond.${k}`].value = v;
    for (const k of ['times', 'skip', 'probability']) form.elements[k].value = r[k] ?? '';
  }
  async function submit(event) {
    event.preventDefault();
    for (const el of form.querySelectorAll('.invalid')) el.classList.remove('invalid');
    const path = editing ? `/faults/${editing.id}` : '/faults';
    try {
      await control(editing ? 'PUT' : 'POST', path, ruleOf(form));
      done();
    } catch (err) {
      fill(out, errorBox(err));
      const param = err.error?.param;
      const named =
        param &&
        [...form.elements].find((el) => el.name === param || el.name.startsWith(`${param}.`));
      named?.classList.add('invalid');
    }
  }
  return form;
}
