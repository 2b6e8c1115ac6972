// The inspector's shell: which view shows (`#view=...&account=...` in the address, so a view
// can be linked and reloaded), the account picker shared by the views, and the live indicator.
import * as accounts from './accounts.js';
import { control } from './api.js';
import * as coverage from './coverage.js';
import { errorBox, fill, h } from './dom.js';
import * as faults from './faults.js';
import * as requests from './requests.js';
import * as runs from './runs.js';
import * as webhooks from './webhooks.js';
import * as world from './world.js';

const VIEWS = { requests, accounts, runs, faults, webhooks, coverage, world };
const state = { view: 'requests', account: '', accounts: [] };
let cleanup = null;
let generation = 0;

function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const view = params.get('view');
  return { view: view in VIEWS ? view : 'requests', account: params.get('account') ?? '' };
}

/** Shows `view` for `account` (a new address, so the browser's back button works). */
function go(view, account = state.account) {
  const params = new URLSearchParams({ view });
  if (account) params.set('account', account);
  location.hash = params.toString();
}

function setLive(text) {
  const el = document.getElementById('live');
  el.textContent = text;
  el.className = `live ${text}`;
}

/** Every account, newest first, into the picker; the chosen one stays chosen. */
async function loadAccounts() {
  const list = await control('GET', '/accounts?limit=1000');
  state.accounts = list.data;
  const select = document.getElementById('account');
  fill(
    select,
    h('option', { value: '' }, 'All accounts'),
    list.data.map((a) => h('option', { value: a.id }, `${a.name} (${a.id})`)),
  );
  select.value = state.account;
}

/** The views' shared context: the chosen account and the means to change what shows. */
const ctx = {
  get account() {
    return state.account;
  },
  /** The chosen account, or the oldest one (the scenario's first) for views that need one. */
  get accountOrDefault() {
    return state.account || state.accounts.at(-1)?.id || '';
  },
  get accounts() {
    return state.accounts;
  },
  go,
  setAccount: (id) => go(state.view, id),
  setLive,
  reloadAccounts: loadAccounts,
};

async function render() {
  const mine = ++generation;
  const { view, account } = fromHash();
  const changedAccount = account !== state.account;
  Object.assign(state, { view, account });
  cleanup?.();
  cleanup = null;
  setLive('');
  for (const a of document.querySelectorAll('#nav a'))
    a.classList.toggle('active', a.dataset.view === view);
  if (changedAccount || state.accounts.length === 0) await loadAccounts();
  document.getElementById('account').value = account;
  // Each view renders into its own section: one replaced while it still loads writes nowhere.
  const section = h('section', { class: `view view-${view}` });
  fill(document.getElementById('view'), section);
  try {
    const done = (await VIEWS[view].render(section, ctx)) ?? null;
    if (mine === generation) cleanup = done;
    else done?.();
  } catch (err) {
    fill(section, errorBox(err));
  }
}

const picker = document.getElementById('account');
picker.addEventListener('change', (e) => ctx.setAccount(e.target.value));
// Accounts a test made since the page loaded show up when the picker is opened.
picker.addEventListener('focus', () => loadAccounts().catch(() => {}));
for (const a of document.querySelectorAll('#nav a'))
  a.addEventListener('click', (e) => {
    e.preventDefault();
    go(a.dataset.view);
  });
window.addEventListener('hashchange', render);
control('GET', '/health').then((health) => {
  document.getElementById('version').textContent = health.version;
});
render();
