import { indexes } from './entities/indexes';

/**
 * The single table: its key schema, TTL attribute and indexes. The CDK table, the local runtime's
 * CreateTable and the entity definitions (shared/entities) all read the same index list, so they
 * cannot drift apart.
 */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  /** Generic sparse GSIs: an item appears in one only when it carries that index's keys. */
  indexes,
} as const;

export type { IndexName } from './entities/indexes';
