/**
 * The paging half of an infinite query over a list the server answers a page at a time
 * (`{ items, nextCursor }`): start without a cursor, stop when the server gives none.
 */
export const byCursor = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor ?? undefined,
};

/** Every item of the pages loaded so far, in order. */
export function itemsOf<T>(data: { pages: readonly { items: readonly T[] }[] } | undefined): T[] {
  return data?.pages.flatMap((page) => page.items) ?? [];
}
