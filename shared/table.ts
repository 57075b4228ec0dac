/**
 * The single table: its key schema, indexes and every key builder. The CDK table, the local
 * runtime's CreateTable and the repositories all read this module, so they cannot drift apart.
 */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  /** Generic sparse GSIs: an item appears in one only when it carries that index's keys. */
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

export type IndexName = (typeof table.indexes)[number]['name'];

export const keys = {
  catalog: () => ({ pk: 'CATALOG', sk: 'SERVICE#' }),
  service: (slug: string) => ({ pk: 'CATALOG', sk: `SERVICE#${slug}` }),
  booking: (id: string) => ({ pk: `BOOKING#${id}`, sk: 'BOOKING' }),
  /** gsi1: a customer's bookings, newest last. */
  customerBookings: (customerId: string, createdAt = '') => ({
    gsi1pk: `CUSTOMER#${customerId}`,
    gsi1sk: `BOOKING#${createdAt}`,
  }),
};
