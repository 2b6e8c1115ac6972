/** One HTTP attempt of a webhook delivery (docs/runtime.md "Deliveries"). */

/** POSTs once; never throws: a network error, timeout or abort comes back as `error`. */
export async function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ statusCode: number | null; error: string | null }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
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
