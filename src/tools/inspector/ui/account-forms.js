// Making an account (`POST /_control/accounts`) or a key (`POST .../{id}/keys`) from the page; the
// emulator validates what is sent and its error names the field. The answer is the only time a
// key's secret is shown, so it stays on the page until another is made.
import { control } from './api.js';
import { attempt, field, fill, h } from './dom.js';

/** The key just made, its secret shown once, with how to use it. */
export function secretNote(box, key, what) {
  fill(
    box,
    h(
      'div',
      { class: 'secret', role: 'status' },
      h('strong', null, what),
      h('p', null, 'Its secret, shown only now (the emulator keeps its digest):'),
      h('code', { 'data-secret': '' }, key.secret),
      h('p', { class: 'muted' }, `Send it as: Authorization: Bearer ${key.secret}`),
    ),
  );
}

const number = (text) => (text.trim() === '' ? undefined : Number(text));

/** A new account: its name, balance, features and limits; `made(answer)` once made. */
export function newAccountForm(made) {
  const out = h('div');
  const name = h('input', { name: 'name', placeholder: 'sdk-tests', size: 18 });
  const balance = h('input', { name: 'token_balance', type: 'number', min: '0', size: 10 });
  const twins = h('input', { name: 'twins', type: 'checkbox' });
  const rpm = h('input', { name: 'requests_per_minute', type: 'number', min: '1', size: 6 });
  const submit = async (event) => {
    event.preventDefault();
    const limits = rpm.value.trim() ? { requests_per_minute: number(rpm.value) } : undefined;
    const body = {
      name: name.value.trim() || undefined,
      token_balance: number(balance.value),
      features: twins.checked ? ['twins'] : undefined,
      limits,
    };
    const answer = await attempt(out, () => control('POST', '/accounts', body));
    if (answer) made(answer);
  };
  return h(
    'form',
    { class: 'account-form', novalidate: true, onsubmit: submit },
    h('h3', null, 'New account'),
    h(
      'div',
      { class: 'row' },
      field('name', name),
      field('token balance', balance, 'empty: the default'),
      field('requests per minute', rpm, 'empty: no limit'),
      h('label', { class: 'field' }, h('span', null, 'features'), h('span', null, twins, ' twins')),
    ),
    out,
    h('button', { type: 'submit', class: 'primary' }, 'Make the account and its key'),
  );
}

/** A new key of `account`: its name, scopes and expiry; `made(key)` once made. */
export function newKeyForm(account, made) {
  const out = h('div');
  const name = h('input', { name: 'key_name', placeholder: 'read-only', size: 14 });
  const scopes = h('input', { name: 'scopes', value: 'evaluations:read', size: 36 });
  const expires = h('input', { name: 'expires_at', placeholder: '2026-01-02T00:00:00Z', size: 22 });
  const submit = async (event) => {
    event.preventDefault();
    const body = {
      name: name.value.trim(),
      scopes: scopes.value.split(/[\s,]+/).filter(Boolean),
      expires_at: expires.value.trim() || undefined,
    };
    const key = await attempt(out, () => control('POST', `/accounts/${account}/keys`, body));
    if (key) made(key);
  };
  return h(
    'form',
    { class: 'key-form', novalidate: true, onsubmit: submit },
    h(
      'div',
      { class: 'row' },
      field('name', name),
      field('scopes', scopes, 'space-separated, e.g. evaluations:write usage:read'),
      field('expires at', expires, 'empty: never'),
      h('button', { type: 'submit' }, 'Make a key'),
    ),
    out,
  );
}
