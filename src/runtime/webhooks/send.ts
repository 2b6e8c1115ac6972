/** One HTTP attempt of a webhook delivery (docs/runtime.md "Deliveries"). */
import type { EventRecord } from '../../domain/event-view.js';

/** An event and an endpoint it goes to, once its transaction commits. */
export interface StagedDelivery {
  event: Pick<EventRecord, 'id' | 'accountId' | 'type'>;
  endpoint: { id: string; url: string };
}

/** POSTs once; never throws: a network error or timeout comes back as `error`. */
export async function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  controller: AbortController,
  timeoutMs: number,
): Promise<{ statusCode: number | null; error: string | null }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { statusCode: res.status, error: null };
  } catch (err) {
    return { statusCode: null, error: describeError(err) };
  }
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'timeout';
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
