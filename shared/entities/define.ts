import type { IndexName } from '../table-schema';

/**
 * How an entity is declared: the item type it stores, the builder of its primary key, and the
 * index access patterns it populates (each a key builder for one GSI). The repositories write items
 * and read ranges only through these, so a key's shape is stated once, beside the item it keys.
 */

/** An item's primary key in the single table. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** The attributes one GSI is keyed on, e.g. { gsi1pk, gsi1sk }. */
export type IndexKey<I extends IndexName> = Record<`${I}pk` | `${I}sk`, string>;

/** How a Query narrows the sort key (`between`: both ends included, as DynamoDB's BETWEEN). */
export type SortCondition = { beginsWith: string } | { lt: string } | { ge: string } | { between: readonly [string, string] };

/**
 * One partition of the table or of a GSI, optionally narrowed by sort key: what a Query reads.
 * `T` says what the range holds, so a Query of it is typed without a cast at the call.
 */
export interface KeyRange<T = unknown> {
  index?: IndexName;
  pk: string;
  sk?: SortCondition;
  /** Type-only: never set. */
  readonly item?: T;
}

/** An index access pattern before it is bound to its entity. */
export interface IndexSpec<I extends IndexName, A extends unknown[]> {
  index: I;
  key: (...args: A) => IndexKey<I>;
}

/** An index access pattern: its key builder (for writing) and the range its leading arguments name (for reading). */
export interface AccessPattern<T, I extends IndexName, A extends unknown[]> extends IndexSpec<I, A> {
  /**
   * The partition the key names, narrowed to the sort key's prefix when the builder leaves one:
   * trailing arguments left out (empty) give the prefix every item of the pattern shares.
   */
  range: (...args: A) => KeyRange<T>;
}

/** Declares that an entity populates GSI `index` with the keys `key` builds. */
export function on<I extends IndexName, A extends unknown[]>(index: I, key: (...args: A) => IndexKey<I>): IndexSpec<I, A> {
  return { index, key };
}

type Bound<T, X> = {
  [N in keyof X]: X[N] extends IndexSpec<infer I, infer A> ? AccessPattern<T, I, A> : never;
};

export interface Entity<T extends { entity: string }, K extends unknown[] = unknown[], X = object> {
  /** The `entity` attribute every item of this kind carries. */
  name: T['entity'];
  key: (...args: K) => ItemKey;
  /** The primary-key partition `key` names, narrowed to its sort key's prefix (as AccessPattern.range). */
  range: (...args: K) => KeyRange<T>;
  indexes: Bound<T, X>;
  /** Type-only: never set. */
  readonly item?: T;
}

/** Any entity storing items of type `T`, whatever its key builders: what the expression builders take. */
export type EntityOf<T extends { entity: string }> = Pick<Entity<T>, 'name' | 'item'>;

/** The item type an entity stores. */
export type ItemOf<E> = E extends { readonly item?: infer T } ? T : never;

function rangeOf<T>(index: IndexName | undefined, key: Record<string, string>): KeyRange<T> {
  const pk = key[index ? `${index}pk` : 'pk']!;
  const sk = key[index ? `${index}sk` : 'sk'];
  return { ...(index ? { index } : {}), pk, ...(sk ? { sk: { beginsWith: sk } } : {}) };
}

/**
 * `defineEntity<JobItem>()({ name: 'job', key, indexes })`: the item type first (explicit), then
 * the definition, so the name is checked against the item's `entity` and the builders are inferred.
 */
export function defineEntity<T extends { entity: string }>() {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the constraint only asks that each pattern names a GSI; the patterns' own types are inferred.
  return <K extends unknown[], X extends Record<string, IndexSpec<any, any>> = Record<never, never>>(def: {
    name: T['entity'];
    key: (...args: K) => ItemKey;
    indexes?: X;
  }): Entity<T, K, X> => {
    const indexes = Object.fromEntries(
      Object.entries(def.indexes ?? {}).map(([name, spec]) => [
        name,
        { ...spec, range: (...args: unknown[]) => rangeOf<T>(spec.index, spec.key(...args) as Record<string, string>) },
      ]),
    ) as Bound<T, X>;
    return {
      name: def.name,
      key: def.key,
      range: (...args: K) => rangeOf<T>(undefined, def.key(...args) as unknown as Record<string, string>),
      indexes,
    };
  };
}
