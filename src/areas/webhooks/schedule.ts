/**
 * When a delivery's attempts are due (inferred; docs/runtime.md "Deliveries"): the Standard
 * Webhooks schedule, on the account's virtual clock, from each failed attempt's due instant.
 */

/** Immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: eight attempts. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** An endpoint all of whose deliveries failed for this long (virtual) is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/** One attempt's wall-time bound, by default: a receiver that does not answer by then failed. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * The virtual instant of the attempt after a failed one (the `number`-th of its series, due at
 * `at`), or null when it was the last. `schedule[0]` delays the first attempt after its event.
 * @example nextAttemptAt(DEFAULT_RETRY_SCHEDULE_MS, { number: 1, at: 0 }) // 5000
 */
export function nextAttemptAt(
  schedule: readonly number[],
  failed: { number: number; at: number },
): number | null {
  const delay = schedule[failed.number];
  return delay === undefined ? null : failed.at + delay;
}

/** Whether an endpoint failing since `since` has failed long enough at `at` to be disabled. */
export function failedTooLong(since: number | null, at: number): boolean {
  return since !== null && at - since >= DISABLE_AFTER_MS;
}
