/**
 * What every kind's archive route declares (DESIGN.md section 4 "Archive"): its answers, and the
 * range and conditional request headers it honours (RFC 9110 sections 13 and 14, api/archive.ts).
 */
import { z } from '@hono/zod-openapi';
import { errorAnswers, type NamedResource } from '../../core/error-answers.js';
import { MESSAGES } from '../../core/errors.js';

const gzip = { 'application/gzip': { schema: z.string().openapi({ format: 'binary' }) } };
const ETag = z.string().openapi({ description: 'The quoted SHA-256 of the archive.' });

const header = (name: string, description: string) => ({
  name,
  in: 'header' as const,
  required: false,
  description,
  schema: { type: 'string' as const },
});

/** The request headers, documented only: the handler reads them (none can fail validation). */
export const ARCHIVE_HEADERS = [
  header(
    'Range',
    'One range, `bytes=a-b`, `bytes=a-` or `bytes=-n`: 206 with that part. Several ranges: the whole file.',
  ),
  header(
    'If-Range',
    'The ETag of the archive whose first part the client has. The current one: `Range` is honoured; another (the run was built anew), or a date: 200 with the whole current file.',
  ),
  header(
    'If-None-Match',
    'ETags, or `*`: 304 (no content) when one matches the current ETag (weak comparison).',
  ),
  header('If-Match', 'ETags, or `*`: 412 `precondition_failed` when none is the current ETag.'),
];

/** The answers of the archive route, with the route's own 409 (`conflict`) and its resource. */
export function archiveResponses(conflict: string, resource: NamedResource) {
  return {
    200: {
      description: 'The archive. `ETag` is its SHA-256.',
      headers: z.object({ ETag }),
      content: gzip,
    },
    206: { description: 'The requested byte range.', headers: z.object({ ETag }), content: gzip },
    304: {
      description: 'Not Modified: `If-None-Match` names the current ETag. No content.',
      headers: z.object({ ETag }),
    },
    ...errorAnswers([400, 401, 403, 404, 409, 412, 416, 429], {
      codes: { 409: [conflict] },
      examples: { 409: { code: conflict, message: MESSAGES.noArchiveYet('processing') } },
      resource,
    }),
  };
}
