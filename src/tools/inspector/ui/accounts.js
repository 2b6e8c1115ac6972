// Accounts and clocks: every account with its clock (`GET /_control/accounts`), and the chosen
// one's clock controls (advance by a step, to the next transition, set the time or mode), keys
// (`GET .../keys`: names and scopes, never secrets; make one, revoke one), limits and balance;
// and a new account (account-forms.js).
import { newAccountForm, newKeyForm, secretNote } from './account-forms.js';
import { control } from './api.js';
import { attempt, fill, h, table, time } from './dom.js';

const STEPS = [
  ['+1 s', 1],
  ['+10 s', 10],
  ['+1 min', 60],
  ['+10 min', 600],
  ['+1 h', 3600],
  ['+1 day', 86_400],
];

/** Revoked, expiring or active, with the instant. */
function keyState(k) {
  if (k.revoked_at) return `revoked ${time(k.revoked_at)}`;
  return k.expires_at ? `expires ${time(k.expires_at)}` : 'active';
}

/** The transitions an advance applied, as the answer lists them. */
function transitions(list) {
  if (!list?.length) return h('p', { class: 'muted' }, 'No transitions were due.');
  return table(
    ['at', 'run', 'status', 'phase'],
    list.map((t) => [
      time(t.at),
      h('code', null, t.resource),
      `${t.from} \u2192 ${t.to}`,
      t.phase ?? '',
    ]),
  );
}

/** The clock panel of `account`: `onChange` re-renders once the clock moved. */
async function clockPanel(account, out, onChange) {
  const runs = await control('GET', `/accounts/${account.id}/runs?limit=1`);
  const next = runs.next_transition_at;
  const advance = async (body) => {
    const moved = await attempt(out, () =>
      control('POST', `/accounts/${account.id}/clock/advance`, body),
    );
    if (moved) onChange(moved.transitions);
  };
  const instant = h('input', { name: 'now', value: account.clock.now, size: 26 });
  const mode = h('input', { name: 'mode', value: account.clock.mode, size: 12 });
  const put = async (body) => {
    const set = await attempt(out, () => control('PUT', `/accounts/${account.id}/clock`, body));
    if (set) onChange(null);
  };
  const seconds = h('input', {
    type: 'number',
    min: '0',
    step: 'any',
    value: '60',
    name: 'seconds',
    size: 6,
  });
  return h(
    'section',
    { class: 'clock' },
    h('h3', null, 'Clock'),
    h(
      'p',
      { class: 'now' },
      h('strong', { 'data-clock-now': '' }, time(account.clock.now)),
      ` (${account.clock.mode})`,
    ),
    h(
      'div',
      { class: 'row' },
      'Advance',
      STEPS.map(([label, s]) => h('button', { onclick: () => advance({ seconds: s }) }, label)),
      seconds,
      h('button', { onclick: () => advance({ seconds: Number(seconds.value) }) }, 'seconds'),
    ),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          class: 'primary',
          'data-action': 'next-transition',
          disabled: next === null,
          onclick: () => advance({ to: next }),
        },
        'To the next transition',
      ),
      h('span', { class: 'muted' }, next ? `due ${time(next)}` : 'nothing is scheduled'),
    ),
    h(
      'div',
      { class: 'row' },
      'Set the time to',
      instant,
      h('button', { onclick: () => put({ now: instant.value.trim() }) }, 'Set'),
      'mode',
      mode,
      h('button', { onclick: () => put({ mode: mode.value.trim() }) }, 'Set mode'),
      h('small', { class: 'muted' }, 'manual, realtime or scaled:N'),
    ),
  );
}

async function accountPanel(panel, id, applied, redraw, secretBox) {
  const [account, keys] = await Promise.all([
    control('GET', `/accounts/${id}`),
    control('GET', `/accounts/${id}/keys`),
  ]);
  const out = h('div');
  const limits =
    Object.entries(account.limits)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  fill(
    panel,
    h('h2', null, `${account.name} `, h('code', null, account.id)),
    table(
      null,
      [
        ['token balance', account.token_balance.toLocaleString('en')],
        ['limits', limits],
        ['features', account.features.join(', ') || 'none'],
        ['download mode', account.download_mode],
      ],
      { class: 'kv facts' },
    ),
    out,
    await clockPanel(account, out, redraw),
    applied ? [h('h3', null, 'Transitions applied'), transitions(applied)] : null,
    h('h3', null, 'Keys'),
    table(
      ['name', 'id', 'scopes', 'state', ''],
      keys.data.map((k) => [
        k.name,
        h('code', null, k.id),
        k.scopes.join(' '),
        keyState(k),
        k.revoked_at
          ? ''
          : h('button', { onclick: () => revoke(k.id), 'data-revoke': k.id }, 'Revoke'),
      ]),
      { class: 'keys' },
    ),
    h(
      'p',
      { class: 'muted' },
      'Secrets are shown once, when a key is made; the emulator keeps only their digests.',
    ),
    newKeyForm(account.id, (key) => {
      secretNote(secretBox, key, `Key ${key.name} (${key.id}) of ${account.name}`);
      redraw(applied);
    }),
    secretBox,
  );
  async function revoke(key) {
    if (await attempt(out, () => control('POST', `/keys/${key}/revoke`))) redraw(applied);
  }
}

export async function render(root, ctx) {
  // Kept across redraws: a secret is shown once, and stays until another is made.
  const secretBox = h('div');
  const accountForm = newAccountForm(({ account, key }) => {
    secretNote(secretBox, key, `Account ${account.name} (${account.id}) and its key`);
    draw();
  });
  const draw = async (applied) => {
    await ctx.reloadAccounts();
    const panel = h('div', { class: 'detail' });
    const chosen = ctx.accountOrDefault;
    const rows = ctx.accounts.map((a) =>
      h(
        'tr',
        {
          class: a.id === chosen ? 'clickable selected' : 'clickable',
          onclick: () => ctx.setAccount(a.id),
        },
        h('td', null, a.name),
        h('td', null, h('code', null, a.id)),
        h('td', { class: 'nowrap' }, time(a.clock.now)),
        h('td', null, a.clock.mode),
      ),
    );
    if (chosen) await accountPanel(panel, chosen, applied, draw, secretBox);
    else fill(panel, secretBox);
    const list = table(['name', 'id', 'now', 'mode'], rows, { class: 'accounts' });
    fill(
      root,
      h('div', { class: 'split wide' }, h('div', { class: 'scroll' }, list, accountForm), panel),
    );
  };
  await draw();
}
