/**
 * Every id the server makes (functions/common/ids.ts): 128 random bits in base64url, 22 characters.
 * Unguessable, so an id is often the capability itself (a tracking link, a booking). Plain, without
 * a schema library: repositories, handlers and the screens all test ids with it.
 */
export const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Whether a value has an id's shape (whoever made it up): only such a value can name an item. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
