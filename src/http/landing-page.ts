import type { Context } from 'hono';
import type { AppConfig } from '../engine/deps.js';

/**
 * `GET /`, where the banner's address leads a browser: a few links, to the inspector first (what
 * someone opening the emulator in a browser most likely wants, issue 30) and to the API's pages.
 * Static: it shows no data of the world.
 * @example app.get('/', landingPage(deps.config))
 */
export function landingPage(config: Pick<AppConfig, 'control' | 'version'>) {
  const link = (href: string, text: string, what: string) =>
    `<li><a href="${href}">${text}</a>: ${what}</li>`;
  const links = [
    config.control
      ? link(
          '/_control/ui',
          'Inspector',
          'requests live, accounts and clocks, runs, faults, webhooks, coverage, reset and snapshots',
        )
      : '',
    link('/docs', 'API reference', 'the product API (Swagger UI), with "Try it out"'),
    config.control
      ? link('/_control/docs', 'Control API reference', 'seeding, clocks, faults, the journal')
      : '',
    link('/openapi.json', 'openapi.json', 'the product API document'),
    config.control
      ? link('/_control/openapi.json', '_control/openapi.json', 'the control API document')
      : '',
  ];
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>svc-emulator ${config.version}</title>
  </head>
  <body>
    <h1>svc-emulator ${config.version}</h1>
    <p>A stateful, deterministic emulator of the Robot Policy Platform API. The API is under <code>/v1</code>.</p>
    <ul>
      ${links.filter(Boolean).join('\n      ')}
    </ul>
  </body>
</html>
`;
  return (c: Context) => c.html(html);
}
