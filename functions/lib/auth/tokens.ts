import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits: the secret a browser cookie or a worker's bearer header carries. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the table stores instead of the secret: a leaked table row cannot be replayed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
