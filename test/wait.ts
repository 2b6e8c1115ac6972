/**
 * How the tests wait. A test that measures behaviour waits for what it needs (an answer, a
 * delivery, a child's banner), never for a fixed time, and has one wall-clock limit: HANG_MS,
 * generous enough that only a hang trips it on a busy machine (issue 35: two cores at load 7
 * to 9). vitest.config.ts gives it to every test and hook; `eventually` polls under it.
 */

/**
 * How long a test, a hook or one wait may take before it counts as hung: 10 minutes. The longest
 * honest step, a full build (`tsc`, about 20 s of CPU alone), took over 5 on the shared 2-core
 * machine at load 20.
 */
export const HANG_MS = 10 * 60_000;

/**
 * Polls `check` every 10 ms until it answers something other than undefined; throws naming
 * `what` once `limitMs` (a hang) has passed.
 * @example await eventually(async () => (hook.received.length === 1 ? true : undefined), 'delivery')
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  limitMs = HANG_MS,
): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() - started > limitMs) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${what}: not seen within ${limitMs} ms`);
}
