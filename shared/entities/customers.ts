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
