import { defineEntity, on } from './define';

/**
 * A link that lets whoever reads an applicant's mailbox set the password of the pro account for
 * that address: create it, or take it back from an account someone else made. Stored by the
 * SHA-256 of its secret, like a password-reset link, so a leaked row opens nothing; it expires
 * (TTL) with the link and works once.
 */
export interface WorkerAccountLinkItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'worker-account-link';
  /** The link's own random id (never its secret): what its mail is keyed by when asked for. */
  id: string;
  /** The application's email, lower case: the account the link sets a password for. */
  email: string;
  createdAt: string;
  /** Epoch seconds: the link works until then, and the item goes with it. */
  expiresAt: number;
  /** Set by the one conditional write that spends the link. */
  usedAt?: string;
}

/**
 * gsi1 WORKER_ACCOUNT_LINKS#<email>: every live link of one address, so the link that sets the
 * password ends the others mailed before it.
 */
export const workerAccountLinkEntity = defineEntity<WorkerAccountLinkItem>()({
  name: 'worker-account-link',
  key: (secretHash: string) => ({ pk: `WORKER_ACCOUNT_LINK#${secretHash}`, sk: 'LINK' }),
  indexes: {
    of: on('gsi1', (email: string, createdAt = '') => ({
      gsi1pk: `WORKER_ACCOUNT_LINKS#${email.trim().toLowerCase()}`,
      gsi1sk: `WORKER_ACCOUNT_LINK#${createdAt}`,
    })),
  },
});
