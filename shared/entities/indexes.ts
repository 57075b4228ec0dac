/**
 * The table's generic sparse GSIs: an item appears in one only when it carries that index's keys.
 * The table (shared/table.ts, read by the CDK stack and the local runtime) and the entity
 * definitions both read them from here.
 */
export const indexes = [
  { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
] as const;

export type IndexName = (typeof indexes)[number]['name'];

/** The two attributes GSI `index` is keyed on. */
export function indexAttributes<I extends IndexName>(index: I): { partitionKey: `${I}pk`; sortKey: `${I}sk` } {
  return { partitionKey: `${index}pk`, sortKey: `${index}sk` };
}
