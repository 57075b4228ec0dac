/**
 * The single table: its key schema, TTL attribute and indexes. The CDK table, the local runtime's
 * CreateTable and the entity definitions (shared/entities) all read this, so they cannot drift
 * apart. It imports nothing: the entities name its indexes, and table.ts gathers the entities' key
 * builders, so the layout sits beneath both.
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
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  ],
} as const;

export type IndexName = (typeof table.indexes)[number]['name'];
