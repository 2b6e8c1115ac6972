// Webhooks: the chosen account's endpoints (`GET /_control/webhook_endpoints`, never their signing
// secrets) with their receiver chaos and, for those that have it, the receiver report's verdict
// (`GET .../{id}/receiver_report`), its deliveries with their chaos, attempts and next attempt time
// (`GET /_control/webhook_deliveries`), and the chosen delivery: the payload it sends, each
// attempt's answer, redelivery (`GET .../{id}`, `POST .../{id}/redeliver`). Attempts are made in
// the background, so the view reads the deliveries again every two seconds while open.
import { control } from './api.js';
import { attempt, fill, h, pretty, statusBadge, table, time } from './dom.js';

const PAGE = 100;
const REFRESH_MS = 2000;

/** An attempt's outcome: the receiver's status, the network error, or in flight. */
function outcome(a) {
  if (a.in_flight) return h('span', { class: 'muted' }, 'in flight');
  return a.status_code ? statusBadge(a.status_code) : h('span', { class: 'badge s5xx' }, a.error);
}

/** An endpoint's receiver chaos: each kind it can get, with its probability unless every time. */
function chaosOf(chaos) {
  if (!chaos) return h('span', { class: 'muted' }, 'none');
  const kinds = Object.entries(chaos).filter(([, p]) => p > 0);
  return kinds.map(([kind, p]) =>
    h('span', { class: 'badge chaos' }, p === 1 ? kind : `${kind} ${Math.round(p * 100)}%`),
  );
}

/** A receiver report's verdict (`pass`, `fail`, `not_judged`) as a badge, and its failed rules. */
function verdictOf(report) {
  if (!report) return '';
  const failed = report.findings.filter((f) => f.verdict === 'fail').map((f) => f.rule);
  return [
    h('span', { class: `badge verdict-${report.verdict}` }, report.verdict.replace('_', ' ')),
    failed.length ? h('span', { class: 'muted' }, ` ${failed.join(', ')}`) : null,
  ];
}

/** A delivery's chaos as a badge saying what a careful receiver answers it; none for ordinary. */
function deliveryChaos(d) {
  if (!d.chaos) return '';
  return h('span', { class: 'badge chaos', title: `expects ${d.expected}` }, d.chaos);
}

/** Every attempt of a delivery, series and number, with what the receiver answered. */
function attemptsDetail(d) {
  if (!d.attempts.length) return h('p', { class: 'muted' }, 'No attempt yet.');
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
        outcome(a),
        a.duration_ms === null ? null : h('span', { class: 'wall muted' }, ` ${a.duration_ms} ms`),
        a.response_body ? h('pre', { class: 'answer' }, pretty(a.response_body)) : null,
      ),
    ),
  );
}

/** Fills `pane` with the delivery (`GET /_control/webhook_deliveries/{id}`). */
function renderDelivery(pane, d, redeliver) {
  const out = h('div');
  fill(
    pane,
    h('h2', null, h('code', null, d.id), ' ', d.status),
    table(
      null,
      [
        ['event', [d.event_type, ' ', h('code', null, d.event_id)]],
        ['webhook-id', h('code', null, d.webhook_id)],
        [
          'chaos',
          d.chaos
            ? [deliveryChaos(d), ` a careful receiver answers ${d.expected}`]
            : h('span', { class: 'muted' }, 'none: sent as the platform sends it'),
        ],
        ['endpoint', h('code', null, d.endpoint_id)],
        ['url', d.url],
        ['next attempt', d.next_attempt_at ? time(d.next_attempt_at) : 'none'],
      ],
      { class: 'kv facts' },
    ),
    out,
    d.status === 'pending'
      ? null
      : h('button', { class: 'primary', onclick: () => redeliver(d.id, out) }, 'Redeliver'),
    h('h3', null, 'Attempts (virtual time) and answers'),
    attemptsDetail(d),
    h('h3', null, 'Payload (each attempt sends it, signed)'),
    d.payload === null
      ? h('p', { class: 'muted' }, 'The event is gone (a reset).')
      : h('pre', { class: 'payload' }, pretty(d.payload)),
  );
}

export async function render(root, ctx) {
  const account = ctx.accountOrDefault;
  if (!account) return fill(root, h('p', { class: 'muted' }, 'No account yet.'));
  const out = h('div');
  const endpointsBox = h('div');
  const deliveriesBox = h('div', { class: 'scroll' });
  const detail = h('aside', { class: 'detail' }, h('p', { class: 'muted' }, 'Choose a delivery.'));
  let chosen = null;
  let shown = '';
  const filter = h(
    'select',
    { name: 'status', onchange: () => draw() },
    ['', 'pending', 'delivered', 'failed'].map((s) => h('option', { value: s }, s || 'any status')),
  );

  const enable = async (id) =>
    (await attempt(out, () => control('POST', `/webhook_endpoints/${id}/enable`))) && draw();
  const redeliver = async (id, where) =>
    (await attempt(where, () => control('POST', `/webhook_deliveries/${id}/redeliver`))) && draw();
  /** The chosen delivery in the pane, redrawn only when it changed. */
  const showDelivery = async (id) => {
    const moved = chosen !== id;
    chosen = id;
    for (const tr of deliveriesBox.querySelectorAll('tr[data-delivery]'))
      tr.classList.toggle('selected', tr.dataset.delivery === id);
    const d = await control('GET', `/webhook_deliveries/${id}`).catch(() => null);
    const text = JSON.stringify(d);
    if (!d || chosen !== id || (!moved && text === shown)) return;
    shown = text;
    renderDelivery(detail, d, redeliver);
  };

  async function draw() {
    const q = new URLSearchParams({ account, limit: String(PAGE), order: 'newest' });
    if (filter.value) q.set('status', filter.value);
    const [endpoints, deliveries] = await Promise.all([
      control('GET', `/webhook_endpoints?account=${account}&limit=${PAGE}`),
      control('GET', `/webhook_deliveries?${q}`),
    ]);
    const reports = await Promise.all(
      endpoints.data.map((e) =>
        e.chaos ? control('GET', `/webhook_endpoints/${e.id}/receiver_report`) : null,
      ),
    );
    fill(
      endpointsBox,
      endpoints.data.length
        ? table(
            ['id', 'url', 'events', 'status', 'chaos', 'receiver', 'created', ''],
            endpoints.data.map((e, i) =>
              h(
                'tr',
                null,
                h('td', null, h('code', null, e.id)),
                h('td', { class: 'cut', title: e.url }, e.url),
                ...[
                  e.events.join(' '),
                  e.status === 'enabled' ? e.status : `disabled ${time(e.disabled_at)}`,
                  chaosOf(e.chaos),
                  verdictOf(reports[i]),
                  h('span', { class: 'nowrap' }, time(e.created_at)),
                  e.status === 'disabled'
                    ? h('button', { onclick: () => enable(e.id) }, 'Enable')
                    : '',
                ].map((c) => h('td', null, c)),
              ),
            ),
            { class: 'endpoints' },
          )
        : h('p', { class: 'muted' }, 'No webhook endpoints.'),
    );
    const rows = deliveries.data.map((d) =>
      h(
        'tr',
        {
          'data-delivery': d.id,
          class: d.id === chosen ? 'clickable selected' : 'clickable',
          onclick: () => showDelivery(d.id),
        },
        h('td', null, h('code', null, d.id)),
        h('td', null, d.event_type),
        h('td', { 'data-chaos': d.chaos ?? '' }, deliveryChaos(d)),
        h('td', { class: 'cut', title: d.url }, h('code', null, d.endpoint_id)),
        h('td', { 'data-status': '' }, d.status),
        h(
          'td',
          { class: 'attempt-marks' },
          d.attempts.length ? d.attempts.map(outcome) : h('span', { class: 'muted' }, 'none yet'),
        ),
        h('td', { class: 'nowrap' }, time(d.next_attempt_at)),
      ),
    );
    fill(
      deliveriesBox,
      rows.length
        ? table(
            ['delivery', 'event', 'chaos', 'endpoint', 'status', 'attempts', 'next attempt'],
            rows,
            {
              class: 'deliveries',
            },
          )
        : h('p', { class: 'muted' }, 'No deliveries.'),
      deliveries.has_more ? h('p', { class: 'muted' }, `The newest ${PAGE}.`) : null,
    );
    if (chosen) await showDelivery(chosen);
  }

  fill(
    root,
    h('div', { class: 'filters' }, h('span', { class: 'muted' }, `account ${account}`), filter),
    out,
    h('h2', null, 'Endpoints'),
    endpointsBox,
    h('h2', null, 'Deliveries'),
    h('div', { class: 'split' }, deliveriesBox, detail),
  );
  await draw();
  const timer = setInterval(() => document.hidden || draw().catch(() => {}), REFRESH_MS);
  return () => clearInterval(timer);
}
