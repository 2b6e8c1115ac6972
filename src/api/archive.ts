import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/env.js';
import { getArchiveRoute } from '../contract/evaluations.js';
import { apiError, MESSAGES } from '../errors.js';
import { settleAccount } from '../runtime/settle.js';
import { findRun } from './evaluations.js';

type Range = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=` range (RFC 9110 14.1.2); several ranges are answered whole, as RFC 9110 allows. */
export function parseRange(header: string | undefined, size: number): Range {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** The archive bytes with `Content-Length`, `ETag`, `Content-Disposition`; HEAD and `Range`. */
function serveArchive(c: Context<AppEnv>, runId: string, bytes: Buffer, sha256: string): Response {
  const headers: Record<string, string> = {
    'Content-Type': 'application/gzip',
    'Content-Disposition': `attachment; filename="${runId}.tar.gz"`,
    ETag: `"${sha256}"`,
    'Accept-Ranges': 'bytes',
  };
  const range = parseRange(c.req.header('range'), bytes.length);
  if (range === 'unsatisfiable') {
    throw apiError('range_not_satisfiable', {
      param: 'Range',
      headers: { 'Content-Range': `bytes */${bytes.length}` },
    });
  }
  if (range) {
    const part = bytes.subarray(range.start, range.end + 1);
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${bytes.length}`;
    headers['Content-Length'] = String(part.length);
    return c.body(new Uint8Array(part), 206, headers);
  }
  headers['Content-Length'] = String(bytes.length);
  return c.body(new Uint8Array(bytes), 200, headers);
}

function archiveOf(c: Context<AppEnv>, runId: string, status: string) {
  if (status !== 'succeeded') {
    throw apiError('run_not_ready', { message: MESSAGES.noArchiveYet(status) });
  }
  const archive = c.get('deps').store.archives.get(runId);
  if (!archive) {
    throw apiError('resource_not_found', {
      message: MESSAGES.seededWithoutArchive,
      param: 'run_id',
    });
  }
  return archive;
}

export function registerArchive(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getArchiveRoute, ((c: Context<AppEnv>) => {
    const runId = c.req.param('run_id')!;
    const run = findRun(c, runId);
    const archive = archiveOf(c, runId, run.state.status);
    return serveArchive(c, runId, archive.bytes, archive.sha256);
  }) as never);
}

/**
 * `GET /_downloads/{token}`: the signed link of signed download mode (DESIGN.md section 3).
 * Needs no key; answers 403 `download_expired` after `expires_at` on the account's clock.
 */
export function signedDownload(c: Context<AppEnv>): Response {
  const { store, clocks } = c.get('deps');
  const token = c.req.param('token') ?? '';
  const run = store.evaluations.findByDownloadToken(token);
  const account = run && store.accounts.get(run.accountId);
  if (!run || !account) throw apiError('resource_not_found', { message: MESSAGES.noDownloadLink });
  const now = clocks.now(account);
  settleAccount(c.get('deps'), account, now);
  const expires = run.state.download?.expires_at;
  if (expires && Date.parse(expires) <= now) throw apiError('download_expired');
  const archive = archiveOf(c, run.id, run.state.status);
  return serveArchive(c, run.id, archive.bytes, archive.sha256);
}
