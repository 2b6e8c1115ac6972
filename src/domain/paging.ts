/** A page of the list envelope (API document section 2.1) with the cursor of DESIGN.md section 3. */
export function listPage<T extends object, O extends string>(
  items: T[],
  hasMore: boolean,
  object: O,
  cursorOf: (item: T) => string,
) {
  const last = items.at(-1);
  return {
    object: 'list' as const,
    data: items.map((item) => ({ ...item, object })),
    has_more: hasMore,
    next_cursor: hasMore && last ? cursorOf(last) : null,
  };
}
