/**
 * The most JSON a list page carries (inferred): past it the page ends early with `has_more`, so a
 * page of large items (runs with big specs) stays a bounded answer. One item always fits.
 */
export const PAGE_BYTES = 1024 * 1024;

/**
 * A page of the list envelope (API document section 2.1) with the cursor of DESIGN.md section 3,
 * cut short of `PAGE_BYTES`.
 * @example listPage(page.data, page.hasMore, 'event', (e) => e.id)
 */
export function listPage<T extends object, O extends string>(
  items: T[],
  hasMore: boolean,
  object: O,
  cursorOf: (item: T) => string,
) {
  const data: (T & { object: O })[] = [];
  let bytes = 0;
  for (const item of items) {
    const shown = { ...item, object };
    bytes += JSON.stringify(shown).length;
    if (data.length > 0 && bytes > PAGE_BYTES) break;
    data.push(shown);
  }
  const more = hasMore || data.length < items.length;
  const last = data.at(-1);
  return {
    object: 'list' as const,
    data,
    has_more: more,
    next_cursor: more && last ? cursorOf(last) : null,
  };
}
