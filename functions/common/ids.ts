import { randomBytes } from 'node:crypto';

/** 128 random bits, base64url (22 characters): ids that double as capabilities. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
