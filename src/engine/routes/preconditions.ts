/**
 * Conditional GET and HEAD of a representation known by a strong entity tag and no modification
 * date (the archive, whose ETag is its SHA-256), in RFC 9110's order of section 13.2.2.
 * `If-Unmodified-Since` and `If-Modified-Since` are ignored, as 13.1.3 and 13.1.4 say for a
 * resource without a modification date; an `If-Range` date never matches (13.1.5: only a strong
 * validator may, and a date is not one here).
 */

/** An entity tag (RFC 9110 section 8.8.3): its opaque part between the quotes, and `W/` or not. */
interface EntityTag {
  weak: boolean;
  opaque: string;
}

const TAG = /^\s*(W\/)?"([^"]*)"\s*(?:,|$)/;

/**
 * The value of `If-Match` or `If-None-Match`: `*`, or its entity tags (a malformed rest is
 * dropped: a tag that cannot be read matches nothing).
 * @example entityTags('W/"a", "b"') // [{ weak: true, opaque: 'a' }, { weak: false, opaque: 'b' }]
 */
export function entityTags(value: string): '*' | EntityTag[] {
  if (value.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  let rest = value;
  for (let m = TAG.exec(rest); m; m = TAG.exec(rest)) {
    tags.push({ weak: m[1] !== undefined, opaque: m[2]! });
    rest = rest.slice(m[0].length);
    if (rest.trim() === '') break;
  }
  return tags;
}

/** The answer the conditions call for; `range` says whether a `Range` is still honoured. */
export type Precondition = 'precondition_failed' | 'not_modified' | { range: boolean };

/**
 * What a GET or HEAD with these request headers answers, given the current strong `etag`'s opaque
 * part: 412 (If-Match), 304 (If-None-Match), or the normal answer, its `Range` dropped when an
 * `If-Range` does not match.
 * @example preconditions({ 'if-none-match': '"abc"' }, 'abc') // 'not_modified'
 */
export function preconditions(
  header: (name: string) => string | undefined,
  etag: string,
): Precondition {
  const ifMatch = header('if-match');
  // 13.1.1: strong comparison; a weak tag never matches.
  if (ifMatch !== undefined) {
    const tags = entityTags(ifMatch);
    if (tags !== '*' && !tags.some((t) => !t.weak && t.opaque === etag))
      return 'precondition_failed';
  }
  const ifNoneMatch = header('if-none-match');
  // 13.1.2: weak comparison; for GET and HEAD a match is 304.
  if (ifNoneMatch !== undefined) {
    const tags = entityTags(ifNoneMatch);
    if (tags === '*' || tags.some((t) => t.opaque === etag)) return 'not_modified';
  }
  const ifRange = header('if-range');
  if (ifRange === undefined) return { range: true };
  // 13.1.5: a strong entity tag that is the current one; anything else sends the whole file.
  const tag = ifRange.trim().startsWith('"') ? entityTags(ifRange) : [];
  return { range: tag !== '*' && tag.length === 1 && tag[0]!.opaque === etag };
}
