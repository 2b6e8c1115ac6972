/** The last instant `Date` can write in the four-digit-year form: 9999-12-31T23:59:59.999Z. */
const LAST_FOUR_DIGIT_YEAR = 253402300799999;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * RFC 3339 UTC with milliseconds (DESIGN.md section 3): what `new Date(ms).toISOString()`
 * writes, computed without a Date (about 0.17 against 0.46 us): every run body, event and log
 * line writes several, and a listing hundreds (issue 12). The civil date is Howard Hinnant's
 * days-to-date algorithm. Instants outside years 1970 to 9999, or with a fraction of a
 * millisecond, go to `Date` (which also throws for an invalid one, as before).
 * @example toTimestamp(Date.UTC(2026, 0, 1)) // '2026-01-01T00:00:00.000Z'
 */
export function toTimestamp(ms: number): string {
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR && Number.isInteger(ms))) {
    return new Date(ms).toISOString();
  }
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(rest - seconds * 1000)}Z`;
}
