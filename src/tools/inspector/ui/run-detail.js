// One run: status, phase and progress; its current attempt's transitions on the account's clock
// (applied, and still to come); its log and files; its archive; a button that advances the
// account's clock to the run's next transition (`POST .../clock/advance {to}`).
import { control, download } from './api.js';
import { attempt, fill, h, runBadge, table, time } from './dom.js';

function timeline(items) {
  if (!items.length)
    return h('p', { class: 'muted' }, 'Seeded in a fixed state: no transitions on the clock.');
  return h(
    'ol',
    { class: 'timeline' },
    items.map((t) =>
      h(
        'li',
        { class: t.past ? 'past' : 'future' },
        h('span', { class: 'mark' }, t.past ? '\u25cf' : '\u25cb'),
        h('time', null, time(t.at)),
        ' ',
        runBadge(t.status),
        t.phase ? h('span', { class: 'phase' }, ` ${t.phase}`) : null,
      ),
    ),
  );
}

/** Fills `pane` with the run (`GET /_control/runs/{id}`); `refresh` reloads list and pane. */
export function renderRun(pane, detail, refresh) {
  const { run } = detail;
  const out = h('div');
  const next = detail.next_transition_at;
  const advance = async () => {
    const body = { to: next };
    const moved = await attempt(out, () =>
      control('POST', `/accounts/${detail.account_id}/clock/advance`, body),
    );
    if (moved) await refresh();
  };
  const archive = detail.archive_url
    ? h(
        'button',
        {
          onclick: () =>
            attempt(out, () =>
              download(detail.archive_url.replace(/^\/_control/, ''), `${run.id}.tar.gz`),
            ),
        },
        `Download ${run.id}.tar.gz`,
      )
    : null;
  fill(
    pane,
    h('h2', null, h('code', null, run.id), ' ', runBadge(run.status)),
    table(
      null,
      [
        ['kind', run.object],
        ['phase', h('span', { 'data-run-phase': '' }, run.phase ?? '')],
        ['progress', `${Math.round((run.progress ?? 0) * 100)}%`],
        ['attempt', detail.attempt ?? 'none (fixed state)'],
        ['status message', run.status_message ?? ''],
        ['error', run.error ? `${run.error.code}: ${run.error.message}` : ''],
      ],
      { class: 'kv facts' },
    ),
    out,
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          class: 'primary',
          'data-action': 'run-next-transition',
          disabled: !next,
          onclick: advance,
        },
        'Advance to its next transition',
      ),
      h('span', { class: 'muted' }, next ? ` due ${time(next)}` : ' nothing is scheduled'),
    ),
    h('h3', null, 'Timeline (virtual time)'),
    timeline(detail.timeline),
    h('h3', null, 'Log'),
    detail.logs.length
      ? h('pre', { class: 'log' }, detail.logs.join('\n'))
      : h('p', { class: 'muted' }, 'No lines yet.'),
    h('h3', null, 'Files'),
    detail.files?.length
      ? [
          table(
            ['path', 'bytes'],
            detail.files.map((f) => [f.path, f.bytes]),
          ),
          detail.files_has_more ? h('p', { class: 'muted' }, 'The first 100 files.') : null,
        ]
      : h(
          'p',
          { class: 'muted' },
          detail.files ? 'No files.' : 'Files are listed once the run has succeeded.',
        ),
    archive,
    h(
      'details',
      null,
      h('summary', null, 'The run as its kind shows it'),
      h('pre', null, JSON.stringify(run, null, 2)),
    ),
  );
}
