// World: reset (`POST /_control/reset`, everything or the chosen account), the scenarios
// (`GET /_control/scenarios`, `POST .../load`), and snapshots (`GET`/`POST /_control/snapshots`,
// restore, download, delete). What replaces state asks first: a test suite may be running.
import { control, download } from './api.js';
import { attempt, field, fill, h, table } from './dom.js';

const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A snapshot's size in rows that matter to a reader; every table's count is in its title. */
function counts(s) {
  const c = s.counts;
  const text = `${plural(c.accounts, 'account')}, ${plural(c.runs, 'run')}, ${plural(c.journal, 'call')}`;
  const all = Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return h('span', { title: all }, text);
}

export async function render(root, ctx) {
  const out = h('div', { class: 'done', role: 'status' });
  const chosen = ctx.accounts.find((a) => a.id === ctx.account);
  /** Runs `action` (a control call) once confirmed; says what it did, or the emulator's error. */
  const act = async (question, action, said) => {
    if (question && !window.confirm(question)) return;
    const done = await attempt(out, action);
    if (done === undefined) return;
    await ctx.reloadAccounts();
    await draw();
    fill(out, h('p', { class: 'ok' }, said(done)));
  };

  const resetBox = h('section');
  const scenariosBox = h('section');
  const snapshotsBox = h('section');
  const name = h('input', { name: 'snapshot', placeholder: 'base', size: 20 });
  const scope = h(
    'select',
    { name: 'scope' },
    h('option', { value: '' }, 'the whole world'),
    chosen ? h('option', { value: chosen.id }, `the account ${chosen.name}`) : null,
  );
  const save = (event) => {
    event.preventDefault();
    const body = { name: name.value.trim(), ...(scope.value ? { account: scope.value } : {}) };
    return act(
      null,
      () => control('POST', '/snapshots', body),
      (s) => `Saved ${s.name}.`,
    );
  };

  async function draw() {
    const [scenarios, snapshots] = await Promise.all([
      control('GET', '/scenarios'),
      control('GET', '/snapshots'),
    ]);
    fill(
      resetBox,
      h('h2', null, 'Reset'),
      h(
        'p',
        null,
        'Back to the loaded scenario, ',
        h('code', null, scenarios.loaded),
        ': every account, key, run, event, delivery, fault rule and the journal as it made them.',
      ),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            class: 'danger',
            onclick: () =>
              act(
                `Reset the whole world to the scenario ${scenarios.loaded}?`,
                () => control('POST', '/reset', {}),
                (r) => `Reset everything to ${r.scenario}.`,
              ),
          },
          'Reset everything',
        ),
        chosen
          ? h(
              'button',
              {
                onclick: () =>
                  act(
                    `Reset the account ${chosen.name} (${chosen.id})?`,
                    () => control('POST', '/reset', { account: chosen.id }),
                    (r) => `Reset ${r.account}.`,
                  ),
              },
              `Reset ${chosen.name} only`,
            )
          : h('span', { class: 'muted' }, 'Choose an account at the top to reset it alone.'),
      ),
    );
    fill(
      scenariosBox,
      h('h2', null, 'Scenarios'),
      table(
        ['name', 'description', ''],
        scenarios.data.map((s) => [
          h('code', null, s.name),
          s.error ? h('span', { class: 'error' }, s.error) : (s.description ?? ''),
          s.name === scenarios.loaded
            ? h('span', { class: 'muted nowrap' }, 'loaded')
            : h(
                'button',
                {
                  disabled: Boolean(s.error),
                  onclick: () =>
                    act(
                      `Replace the whole world with the scenario ${s.name}?`,
                      () => control('POST', '/scenarios/load', { name: s.name }),
                      (r) => `Loaded ${r.scenario}.`,
                    ),
                },
                'Load',
              ),
        ]),
        { class: 'scenarios' },
      ),
    );
    const rows = snapshots.data.map((s) => [
      h('code', null, s.name),
      s.scope === 'world' ? 'the world' : h('code', null, s.account),
      h('span', { class: 'wall' }, s.created_at.replace('T', ' ').replace('Z', '')),
      counts(s),
      h(
        'span',
        null,
        h(
          'button',
          {
            onclick: () =>
              act(
                s.scope === 'world'
                  ? `Put the whole world back as ${s.name} holds it?`
                  : `Put ${s.account} back as ${s.name} holds it?`,
                () => control('POST', `/snapshots/${s.name}/restore`),
                (r) => `Restored ${r.name}.`,
              ),
          },
          'Restore',
        ),
        h(
          'button',
          {
            onclick: () =>
              attempt(out, () =>
                download(`/snapshots/${s.name}/download`, `${s.name}.snapshot.json`),
              ),
          },
          'Download',
        ),
        h(
          'button',
          {
            onclick: () =>
              act(
                null,
                () => control('DELETE', `/snapshots/${s.name}`),
                (r) => `Dropped ${r.name}.`,
              ),
          },
          'Delete',
        ),
      ),
    ]);
    fill(
      snapshotsBox,
      h('h2', null, 'Snapshots'),
      h(
        'form',
        { class: 'row snapshot-form', onsubmit: save },
        field('name', name),
        field('of', scope),
        h('button', { type: 'submit', class: 'primary' }, 'Save a snapshot'),
      ),
      rows.length
        ? table(['name', 'of', 'saved (wall time)', 'holds', ''], rows, { class: 'snapshots' })
        : h('p', { class: 'muted' }, 'No snapshots saved in this process.'),
    );
  }

  fill(root, out, resetBox, snapshotsBox, scenariosBox);
  await draw();
}
