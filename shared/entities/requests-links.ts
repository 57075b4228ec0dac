import { defineEntity } from './define';

/**
 * "Find my requests": a single-use link mailed to an address, and the one customer identity that
 * address's requests are gathered to.
 */

/**
 * A requests link: the secret travels only in the mail (256 random bits); the table keeps its
 * SHA-256 as the key, so a leaked row opens nothing. Works for 15 minutes (`expiresAt` is also the
 * table's TTL, which deletes late: the consume checks the time itself) and once (`usedAt`).
 */
export interface RequestsLinkItem {
  pk: string;
  sk: string;
  entity: 'requests-link';
  /** A random id for the mail's subject (the outbox key): never the secret. */
  id: string;
  /** Lower case, as typed into /find-my-requests. */
  email: string;
  /**
   * SHA-256 of the asking browser's secret (its `requests_link` cookie): only that browser's own
   * earlier identity is gathered in when it opens the link.
   */
  askedBy: string;
  createdAt: string;
  usedAt?: string;
  /** Epoch seconds: the link's end, and the table's TTL attribute. */
  expiresAt: number;
}

export const requestsLinkEntity = defineEntity<RequestsLinkItem>()({
  name: 'requests-link',
  key: (secretHash: string) => ({ pk: `REQUESTS_LINK#${secretHash}`, sk: 'LINK' }),
});

/**
 * The customer identity an address's requests are gathered to: set by the first browser that
 * proved it reads the address (opened a requests link), never by one that only typed it. Beside
 * the address's CUSTOMER# items (customerEmailEntity), under its own sort key.
 */
export interface CustomerAccountItem {
  pk: string;
  sk: string;
  entity: 'customer-account';
  email: string;
  customerId: string;
  since: string;
}

export const customerAccountEntity = defineEntity<CustomerAccountItem>()({
  name: 'customer-account',
  key: (email: string) => ({ pk: `CUSTOMER_EMAIL#${email.trim().toLowerCase()}`, sk: 'ACCOUNT' }),
});
