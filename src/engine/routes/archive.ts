import type { Context } from 'hono';
import type { AppEnv } from '../../core/env.js';
import { apiError, MESSAGES } from '../../core/errors.js';
import type { RunRecord } from '../records.js';
import { runArchive } from '../run-archive.js';
import { settleSliced } from '../sliced-settle.js';
import { preconditions } from './preconditions.js';

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

/**
 * A succeeded run's archive (DESIGN.md section 4), HEAD, one `Range`, and the conditions of RFC 9110
 * section 13 on its ETag (preconditions.ts); 409 before success.
 */
export async function serveArchive(
  c: Context<AppEnv>,
  run: RunRecord,
  idParam = 'run_id',
): Promise<Response> {
  if (run.state.status !== 'succeeded') {
    throw apiError('run_not_ready', { message: MESSAGES.noArchiveYet(run.state.status) });
  }
  const archive = await runArchive(c.get('deps'), run);
  if (!archive) {
    throw apiError('resource_not_found', {
      message: MESSAGES.seededWithoutArchive,
      param: idParam,
    });
  }
  const { bytes, sha256 } = archive;
  const etag = `"${sha256}"`;
  const condition = preconditions((name) => c.req.header(name), sha256);
  if (condition === 'precondition_failed')
    throw apiError('precondition_failed', { param: 'If-Match', headers: { ETag: etag } });
  // RFC 9110 section 15.4.5: a 304 has no content, and the ETag a 200 would have.
  if (condition === 'not_modified') return c.body(null, 304, { ETag: etag });
  const headers: Record<string, string> = {
    'Content-Type': 'application/gzip',
    'Content-Disposition': `attachment; filename="${run.id}.tar.gz"`,
    ETag: etag,
    'Accept-Ranges': 'bytes',
  };
  // A stale If-Range: the whole current file, never a piece of it after a piece of another.
  const range = condition.range ? parseRange(c.req.header('range'), bytes.length) : null;
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

/** `GET /_downloads/{token}` (DESIGN.md section 3): no key; 403 `download_expired` once expired. */
export async function signedDownload(c: Context<AppEnv>): Promise<Response> {
  const { store, clocks } = c.get('deps');
  const token = c.req.param('token') ?? '';
  const found = store.runs.findByDownloadToken(token);
  const account = found && store.accounts.get(found.accountId);
  if (!found || !account)
    throw apiError('resource_not_found', { message: MESSAGES.noDownloadLink });
  const now = clocks.now(account);
  await settleSliced(c.get('deps'), account, now);
  // Read again: the settle may have moved it on (a resume takes the archive away).
  const run = store.runs.get(account.id, found.id)!;
  const expires = run.state.download?.expires_at;
  if (expires && Date.parse(expires) <= now) throw apiError('download_expired');
  return serveArchive(c, run);
}
