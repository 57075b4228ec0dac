import { defineEntity } from './define';

/**
 * A customer identity the server issued: a browser's customer cookie counts only when this exists,
 * so a cookie value nobody issued is a new visitor.
 */
export interface CustomerItem {
  pk: string;
  sk: string;
  entity: 'customer';
  id: string;
  issuedAt: string;
  /**
   * This identity was gathered into another ("Find my requests" opened in the browser holding it):
   * its items were re-filed there, and a cookie still naming it acts as that one.
   */
  mergedInto?: string;
  mergedAt?: string;
}

export const customerEntity = defineEntity<CustomerItem>()({
  name: 'customer',
  key: (id: string) => ({ pk: `CUSTOMER#${id}`, sk: 'IDENTITY' }),
});

/** The customer a first-time visitor's Idempotency-Key minted (by the key's hash), for the retry; expires (TTL). */
export interface CustomerKeyItem {
  pk: string;
  sk: string;
  entity: 'customer-key';
  customerId: string;
  expiresAt: number;
}

export const customerKeyEntity = defineEntity<CustomerKeyItem>()({
  name: 'customer-key',
  key: (keyHash: string) => ({ pk: `CUSTOMERKEY#${keyHash}`, sk: 'CUSTOMERKEY' }),
});

export interface ServiceAddressItem {
  pk: string;
  sk: string;
  entity: 'service-address';
  customerId: string;
  address: string;
  lat: number;
  lng: number;
  savedAt: string;
  /** Epoch seconds: the table's TTL attribute. */
  expiresAt: number;
}

/** The service address a customer saved: the one place the worker list measures from. */
export const serviceAddressEntity = defineEntity<ServiceAddressItem>()({
  name: 'service-address',
  key: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: 'SERVICE_ADDRESS' }),
});

/**
 * A customer identity made something (a booking, request or hire) with this email address: written
 * with what it made. When someone proves they read this address ("Find my requests"), these are
 * the identities whose items made with it are gathered to them. Typing an address proves nothing,
 * so this item gives nobody anything until the address is proven.
 */
export interface CustomerEmailItem {
  pk: string;
  sk: string;
  entity: 'customer-email';
  /** Lower case, as the key. */
  email: string;
  customerId: string;
  /** When the identity last made something with the address. */
  at: string;
}

export const customerEmailEntity = defineEntity<CustomerEmailItem>()({
  name: 'customer-email',
  key: (email: string, customerId: string) => ({ pk: `CUSTOMER_EMAIL#${email.trim().toLowerCase()}`, sk: `CUSTOMER#${customerId}` }),
});
