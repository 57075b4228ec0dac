import * as z from 'zod/mini';

/**
 * Long lists (the owner's jobs, workers, applications, documents) are read a page at a time: a
 * `limit` and the opaque `cursor` the page before answered with. No call reads more items as the
 * marketplace grows; a screen shows "Load more" while `nextCursor` is not null.
 */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** A cursor is a base64url-encoded key: generous for any key of the table, short enough to bound. */
export const MAX_CURSOR_LENGTH = 1024;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`;
export const CURSOR_MESSAGE = 'This page link is out of date or damaged; start again from the first page.';

/** The query fields every paginated list takes; spread them into the list's own query schema. */
export const pageQueryFields = {
  limit: z.pipe(
    z.pipe(z.optional(z.string()), z.transform((raw: string | undefined) => (raw === undefined || raw === '' ? undefined : Number(raw)))),
    z.optional(z.int({ error: LIMIT_MESSAGE }).check(z.gte(1, LIMIT_MESSAGE), z.lte(MAX_PAGE_SIZE, LIMIT_MESSAGE))),
  ),
  cursor: z.pipe(
    z.pipe(z.optional(z.string()), z.transform((raw: string | undefined) => (raw === '' ? undefined : raw))),
    z.optional(z.string().check(z.maxLength(MAX_CURSOR_LENGTH, CURSOR_MESSAGE), z.regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE))),
  ),
};

export const pageQuery = z.object(pageQueryFields);
export type PageQuery = z.infer<typeof pageQuery>;

/** A page of `item`s and where the next one starts (null after the last). */
export const pageOf = <T extends z.ZodMiniType>(item: T) => z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
