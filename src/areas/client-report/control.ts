/** Registers `GET /_control/client_report` (issue 38): the journal of an account, judged. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/env.js';
import { notFound } from '../../core/errors.js';
import type { Deps } from '../../engine/deps.js';
import { clientReportRoute } from './contract.js';
import { clientReportMarkdown } from './markdown.js';
import { clientReport } from './report.js';

export function registerClientReport(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(clientReportRoute, (c) => {
    const { account, key, format } = c.req.valid('query');
    if (!deps.store.accounts.get(account)) throw notFound('account', account, 'account');
    if (key !== undefined && deps.store.keys.get(key)?.accountId !== account)
      throw notFound('key', key, 'key');
    const entries = deps.journal.filter({ account, ...(key === undefined ? {} : { key }) });
    const report = clientReport(entries, { account, key: key ?? null });
    const markdown = format === 'markdown' || (!format && accepts(c.req.header('accept')));
    if (markdown)
      return c.body(clientReportMarkdown(report), 200, {
        'Content-Type': 'text/markdown; charset=utf-8',
      });
    return c.json(report, 200);
  });
}

/** Whether an `Accept` header asks for Markdown before JSON. */
function accepts(accept: string | undefined): boolean {
  if (!accept) return false;
  const md = accept.indexOf('text/markdown');
  const json = accept.indexOf('application/json');
  return md >= 0 && (json < 0 || md < json);
}
