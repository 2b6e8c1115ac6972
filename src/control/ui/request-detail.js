// The detail pane of one journaled call: what was asked, what was answered, and for an error
// why (the code, the message and the field it names, or the fault rule that answered).
import { fill, h, pretty, statusBadge, table, time } from './dom.js';

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
