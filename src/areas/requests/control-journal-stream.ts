/**
 * `GET /_control/stream/requests`: the journal as it is written, as server-sent events (the
 * inspector's live view, issue 30). Each client gets its own bounded queue: one that does not read
 * is sent `overflow` and closed (it reloads a page and reconnects) rather than held in memory.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { errorResponses } from '../../core/contract.js';
import { route } from '../../core/control-routes.js';
import type { AppEnv } from '../../core/env.js';
import type { Deps } from '../../engine/deps.js';
import { entryView, JournalQuery, toFilter } from './control-journal.js';
import { type JournalEntry, matches } from './journal.js';

/** Events a client may have queued unsent before it is cut off. */
export const STREAM_QUEUE_MAX = 1000;

export const streamRequestsRoute = route({
  method: 'get',
  path: '/stream/requests',
  operationId: 'streamJournal',
  summary: 'The journal as it is written, as server-sent events',
  description:
    'A `text/event-stream` of each product call journaled from now on that matches the filters (those of `GET /_control/requests`): event `request` with the entry as data and its `request_id` as id; `removed` when entries were removed (a reset); `overflow` before the stream closes when the client fell 1,000 events behind. The stream ends when the emulator shuts down.',
  request: { query: JournalQuery },
  responses: {
    200: {
      description: 'The stream.',
      content: {
        'text/event-stream': {
          schema: { type: 'string', example: 'id: req_...\nevent: request\ndata: {...}\n\n' },
        },
      },
    },
    ...errorResponses([400]),
  },
});

/** One server-sent event (the data is one line of JSON). */
const sse = (event: string, data: unknown, id?: string) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function registerJournalStream(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(streamRequestsRoute, (c) => {
    const filter = toFilter(c.req.valid('query'));
    const encoder = new TextEncoder();
    let stop: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          const send = (text: string) => controller.enqueue(encoder.encode(text));
          const close = () => {
            stop();
            controller.close();
          };
          // Tells the client when to reconnect, and opens the stream at once.
          send('retry: 1000\n\n');
          const unsubscribe = deps.journal.subscribe({
            entry(e: JournalEntry) {
              if (!matches(e, filter)) return;
              if ((controller.desiredSize ?? 0) <= 0) {
                send(sse('overflow', { queued: STREAM_QUEUE_MAX }));
                close();
              } else send(sse('request', entryView(e), e.request_id));
            },
            removed: () => send(sse('removed', {})),
            end: close,
          });
          stop = () => void unsubscribe();
        },
        cancel: () => void stop(),
      },
      { highWaterMark: STREAM_QUEUE_MAX },
    );
    return c.body(body, 200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
  });
}
