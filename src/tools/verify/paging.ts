/**
 * Paging (API document section 2.1): a page of one item, then the next through `after` =
 * `next_cursor`; `has_more` and `next_cursor` must agree, and the second page must move on.
 */
import type { ContractOperation } from './contract.js';
import { ok } from './read-pass.js';
import type { Difference } from './report-types.js';
import { collectionOf, fillPath, isSubResource, itemFor, pathParams } from './resources.js';
import type { Session } from './session.js';

interface Page {
  data?: unknown[];
  has_more?: unknown;
  next_cursor?: unknown;
}

function pages(op: ContractOperation): boolean {
  const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  return op.method === 'GET' && names.includes('limit') && names.includes('after');
}

/** The key an item is paged by: its `id`, or its `path` for file listings. */
function keyOf(item: unknown): unknown {
  const o = item as { id?: unknown; path?: unknown } | null;
  return o?.id ?? o?.path;
}

export async function checkPaging(session: Session): Promise<void> {
  for (const op of session.contract.operations) {
    if (!pages(op)) continue;
    let base = op.path;
    if (pathParams(op).length > 0) {
      const item = itemFor(session, op);
      if (
        !item ||
        (isSubResource(op) && item.status !== 'succeeded' && item.status !== undefined)
      ) {
        session.notRun(op, 'paging', `nothing to page: no succeeded ${collectionOf(op)} item`);
        continue;
      }
      base = fillPath(op, String(item.id));
    }
    const first = await session.call(op, 'paging', { path: `${base}?limit=1` }, ok(op));
    if (first?.status !== 200) continue;
    const page = first.json as Page;
    const cursorAgrees =
      page.has_more === true
        ? typeof page.next_cursor === 'string' && page.next_cursor !== ''
        : page.next_cursor === null;
    session.amend(op, 'paging.next_cursor', cursorAgrees, cursorDiff(page));
    if (page.has_more !== true || typeof page.next_cursor !== 'string') continue;
    const query = `?limit=1&after=${encodeURIComponent(page.next_cursor)}`;
    const second = await session.call(op, 'paging: next page', { path: `${base}${query}` }, ok(op));
    if (second?.status !== 200) continue;
    const before = keyOf(page.data?.[0]);
    const after = keyOf((second.json as Page).data?.[0]);
    session.amend(op, 'paging.after', after !== undefined && after !== before, {
      field: 'paging.after',
      expected: `a page after ${String(before)}`,
      actual: after === undefined ? 'an empty page' : `the same item ${String(after)}`,
    });
  }
}

function cursorDiff(page: Page): Difference {
  return {
    field: 'paging.next_cursor',
    expected: page.has_more === true ? 'a cursor (has_more is true)' : 'null (has_more is false)',
    actual: page.next_cursor,
  };
}
