import type { SignInRole } from './auth';
import { defineEntity, on } from './define';

/**
 * A password-reset link's record: whose password it may set (the owner's or one pro's), until when,
 * and whether it was used. Stored by the SHA-256 of the link's secret, like a session, so a leaked
 * table row cannot be turned back into a working link; it expires (TTL) with the link.
 */
export interface PasswordResetItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'password-reset';
  /** The link's own random id (never its secret): what its mail is keyed by. */
  id: string;
  role: SignInRole;
  subjectId: string;
  createdAt: string;
  /** Epoch seconds: the link works until then, and the item goes with it. */
  expiresAt: number;
  /** Set by the one conditional write that spends the link. */
  usedAt?: string;
}

/**
 * gsi1 PASSWORD_RESETS#<role>#<subject>: every live link of one person, so the reset that sets a
 * new password ends the other links mailed before it.
 */
export const passwordResetEntity = defineEntity<PasswordResetItem>()({
  name: 'password-reset',
  key: (secretHash: string) => ({ pk: `PASSWORD_RESET#${secretHash}`, sk: 'PASSWORD_RESET' }),
  indexes: {
    of: on('gsi1', (role: string, subjectId: string, createdAt = '') => ({
      gsi1pk: `PASSWORD_RESETS#${role}#${subjectId}`,
      gsi1sk: `PASSWORD_RESET#${createdAt}`,
    })),
  },
});
