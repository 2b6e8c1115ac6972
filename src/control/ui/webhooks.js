// Webhooks: the chosen account's endpoints (`GET /_control/webhook_endpoints`, never their signing
// secrets), its deliveries with their attempts and next attempt time
// (`GET /_control/webhook_deliveries`), and redelivery (`POST .../{id}/redeliver`). Attempts are
// made in the background, so the view reads the deliveries again every two seconds while open.
import { control } from './api.js';
import { attempt, fill, h, statusBadge, table, time } from './dom.js';

const PAGE = 100;
const REFRESH_MS = 2000;

function attemptsOf(d) {
  if (!d.attempts.length) return h('span', { class: 'muted' }, 'none yet');
  return h(
    'ol',
    { class: 'attempts' },
    d.attempts.map((a) =>
      h(
        'li',
        null,
        `${a.series}.${a.number} `,
        h('time', null, time(a.at)),
        ' ',
        a.in_flight
          ? h('span', { class: 'muted' }, 'in flight')
          : a.status_code
            ? statusBadge(a.status_code)
            : h('span', { class: 'badge s5xx' }, a.error),
        a.duration_ms === null ? null : h('span', { class: 'wall muted' }, ` ${a.duration_ms} ms`),
      ),
    ),
  );
}

export async function render(root, ctx) {
  const account = ctx.accountOrDefault;
  if (!account) return fill(root, h('p', { class: 'muted' }, 'No account yet.'));
  const out = h('div');
  const endpointsBox = h('div');
  const deliveriesBox = h('div');
  const filter = h(
    'select',
    { name: 'status', onchange: () => draw() },
    ['', 'pending', 'delivered', 'failed'].map((s) => h('option', { value: s }, s || 'any status')),
  );

  const enable = async (id) =>
    (await attempt(out, () => control('POST', `/webhook_endpoints/${id}/enable`))) && draw();
  const redeliver = async (id) =>
    (await attempt(out, () => control('POST', `/webhook_deliveries/${id}/redeliver`))) && draw();

  async function draw() {
    const q = new URLSearchParams({ account, limit: String(PAGE), order: 'newest' });
    if (filter.value) q.set('status', filter.value);
    const [endpoints, deliveries] = await Promise.all([
      control('GET', `/webhook_endpoints?account=${account}&limit=${PAGE}`),
      control('GET', `/webhook_deliveries?${q}`),
    ]);
    fill(
      endpointsBox,
      endpoints.data.length
        ? table(
            ['id', 'url', 'events', 'status', 'created', ''],
            endpoints.data.map((e) => [
              h('code', null, e.id),
              e.url,
              e.events.join(' '),
              e.status === 'enabled' ? e.status : `disabled ${time(e.disabled_at)}`,
              time(e.created_at),
              e.status === 'disabled' ? h('button', { onclick: () => enable(e.id) }, 'Enable') : '',
            ]),
          )
        : h('p', { class: 'muted' }, 'No webhook endpoints.'),
    );
    const rows = deliveries.data.map((d) =>
      h(
        'tr',
        { 'data-delivery': d.id },
        h('td', null, h('code', null, d.id)),
        h('td', null, d.event_type, h('br'), h('small', { class: 'muted' }, d.event_id)),
        h('td', null, h('code', null, d.endpoint_id)),
        h('td', { 'data-status': '' }, d.status),
        h('td', null, attemptsOf(d)),
        h('td', null, time(d.next_attempt_at)),
        h(
          'td',
          null,
          d.status === 'pending'
            ? ''
            : h('button', { onclick: () => redeliver(d.id) }, 'Redeliver'),
        ),
      ),
    );
    fill(
      deliveriesBox,
      rows.length
        ? table(
            [
              'delivery',
              'event',
              'endpoint',
              'status',
              'attempts (virtual time)',
              'next attempt',
              '',
            ],
            rows,
          )
        : h('p', { class: 'muted' }, 'No deliveries.'),
      deliveries.has_more ? h('p', { class: 'muted' }, `The newest ${PAGE}.`) : null,
    );
  }

  fill(
    root,
    h('div', { class: 'filters' }, h('span', { class: 'muted' }, `account ${account}`), filter),
    out,
    h('h2', null, 'Endpoints'),
    endpointsBox,
    h('h2', null, 'Deliveries'),
    deliveriesBox,
  );
  await draw();
  const timer = setInterval(() => draw().catch(() => {}), REFRESH_MS);
  return () => clearInterval(timer);
}
