import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits: the secret a browser cookie or a worker's bearer header carries. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the table stores instead of the secret: a leaked table row cannot be replayed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/**
 * Whether a secret a caller presented is the one expected, in time that does not depend on where
 * they differ or on either's length (both are hashed to 32 bytes first), so timing the answers
 * tells a guesser nothing about how close a guess came.
 */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
