/** One HTTP attempt of a webhook delivery (docs/runtime.md "Deliveries"). */
import { cutText } from '../requests/journal-details.js';

/** What the receiver answered: its status and body (cut as the journal cuts bodies), or why none. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

/**
 * POSTs once; never throws: a network error, timeout or abort comes back as `error`. The answer's
 * body is kept (its first 2,048 characters) to show why a receiver refused a delivery.
 */
export async function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<AttemptResult> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    const text = await res.text().catch(() => '');
    return { statusCode: res.status, error: null, responseBody: text ? cutText(text) : null };
  } catch (err) {
    return { statusCode: null, error: describeError(err), responseBody: null };
  }
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'timeout';
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
