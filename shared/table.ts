/**
 * The single table (its layout is in table-schema.ts) and every key builder, as one flat map. Each
 * builder is its entity's own (shared/entities: one definition per stored item kind, with its item
 * type and the GSIs it populates).
 */
export { table, type IndexName } from './table-schema';
export { keys } from './entities';
