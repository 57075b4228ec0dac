/** Product constants shared by the server and the screens. */
export const ARRIVAL_GRACE_MINUTES = 45;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;
export const DEFAULT_PLATFORM_FEE_PERCENT = 10;
export const CURRENCY = 'usd';
/** Anonymous customer cookie: set by the first booking or request, so a customer needs no account. */
export const CUSTOMER_COOKIE = 'customer_id';
/** The owner's session cookie (HttpOnly, SameSite=Lax, Secure outside the local stage). */
export const OWNER_SESSION_COOKIE = 'owner_session';
