// The detail pane of one journaled call: what was asked, what was answered, and for an error
// why (the code, the message and the field it names, or the fault rule that answered); the call
// as a curl command that makes it again.
import { curlOf } from './curl.js';
import { fill, h, pretty, statusBadge, table, time } from './dom.js';

/** "Copy as curl": the command, shown (to read or select) and put on the clipboard if allowed. */
function curlButton(entry) {
  const box = h('div');
  const show = () => {
    const { command, cut, masked } = curlOf(entry, location.origin);
    const said = h('p', { class: 'muted' }, 'Set API_KEY to the key the call used.');
    fill(
      box,
      h('pre', { class: 'curl' }, command),
      said,
      cut ? h('p', { class: 'error' }, 'The journal cut this call: the command sends less.') : null,
      masked
        ? h('p', { class: 'error' }, 'A secret field is masked ("[masked]"): put it back.')
        : null,
    );
    // The clipboard needs a secure context and the page's focus; the command shows either way.
    navigator.clipboard?.writeText(command).then(
      () => fill(said, 'Copied. Set API_KEY to the key the call used.'),
      () => {},
    );
  };
  return [h('button', { class: 'copy-curl', onclick: show }, 'Copy as curl'), box];
}

function headersTable(headers) {
  const rows = Object.entries(headers ?? {}).map(([k, v]) => [k, v]);
  return rows.length
    ? table(['header', 'value'], rows, { class: 'kv' })
    : h('p', { class: 'muted' }, 'none');
}

/** Why the call ended as it did: an error envelope's code, message and param, or the fault. */
function why(entry) {
  const error = entry.detail?.error?.error ?? null;
  if (entry.status === null)
    return h(
      'p',
      null,
      'Dropped: no answer was sent',
      entry.fault_id ? ` (fault ${entry.fault_id}).` : '.',
    );
  if (!entry.code && !entry.fault_id) return null;
  const items = [
    entry.code ? h('li', null, 'code ', h('code', null, entry.code)) : null,
    error?.message ? h('li', null, error.message) : null,
    error?.param ? h('li', null, 'about ', h('code', null, error.param)) : null,
    entry.fault_id
      ? h(
          'li',
          null,
          'answered by ',
          entry.fault_id === 'X-Emulator-Fault'
            ? 'the X-Emulator-Fault header'
            : h('a', { href: '#view=faults' }, `fault rule ${entry.fault_id}`),
        )
      : null,
  ];
  return h('section', { class: 'why' }, h('h3', null, 'Why'), h('ul', null, items));
}

/** Fills `pane` with the call `entry` (`GET /_control/requests/{id}`). */
export function renderDetail(pane, entry) {
  const d = entry.detail;
  fill(
    pane,
    h('h2', null, `${entry.method} ${entry.path} `, statusBadge(entry.status)),
    table(
      null,
      [
        ['request id', entry.request_id],
        ['operation', entry.operation ?? '(no route)'],
        ['virtual time', time(entry.at)],
        ['wall time', h('span', { class: 'wall' }, time(entry.wall_at))],
        ['account', entry.account_id ?? ''],
        ['key', entry.key_id ?? ''],
        ['idempotent replay', entry.idempotent_replayed ? 'yes' : 'no'],
      ],
      { class: 'kv facts' },
    ),
    why(entry),
    d
      ? [
          h('h3', null, 'Request'),
          curlButton(entry),
          d.request.query ? h('p', null, h('code', null, `?${d.request.query}`)) : null,
          headersTable(d.request.headers),
          d.request.body ? h('pre', null, pretty(d.request.body)) : null,
          h('h3', null, 'Answer'),
          d.response
            ? [
                headersTable(d.response.headers),
                d.response.body ? h('pre', null, pretty(d.response.body)) : null,
              ]
            : h(
                'p',
                { class: 'muted' },
                'Not kept: an archive or a dropped call has no answer to show.',
              ),
        ]
      : h(
          'p',
          { class: 'muted' },
          'The request and answer of older calls are no longer kept (the newest 100 are).',
        ),
  );
}
