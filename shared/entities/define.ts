import { indexAttributes, type IndexName } from './indexes';
import { shardOf } from './shards';

/**
 * How an entity is declared: the item type it stores, the builder of its primary key, and the
 * index access patterns it populates (each a key builder for one GSI), with, for a sparse index,
 * when an item belongs to it and which of the item's attributes its keys are built from. The
 * repositories write items and read ranges only through these, so a key's shape and an index's
 * membership are stated once, beside the item they are about.
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
  /**
   * The keys a stored item carries on this pattern's GSI (either may be missing), or undefined when
   * it carries neither: whether, and where, the item is filed there.
   */
  keysOf: (item: object) => { pk?: string; sk?: string } | undefined;
}

/** An index access pattern spread over `shards` partitions, its key builder taking the shard first. */
export interface ShardedSpec<I extends IndexName, R extends unknown[]> extends IndexSpec<I, [shard: number, ...rest: R]> {
  shards: number;
}

/** A write-sharded access pattern (shared/entities/shards.ts): besides a pattern's builders, how to find an item's shard and read them all. */
export interface ShardedPattern<T, I extends IndexName, R extends unknown[]> extends AccessPattern<T, I, [shard: number, ...rest: R]> {
  shards: number;
  /** The shard an item is filed in, from its primary key: the same for every write of it. */
  shardOf: (key: { pk: string }) => number;
  /** The keys the item whose primary key is `key` carries on this pattern. */
  keyFor: (key: { pk: string }, ...rest: R) => IndexKey<I>;
  /** The range of every shard, shard 0 first, each narrowed as `range(shard, ...rest)` narrows one. */
  ranges: (...rest: R) => KeyRange<T>[];
}

/** Declares that an entity populates GSI `index` over `shards` partitions, with the keys `key` builds for one. */
export function onShards<I extends IndexName, R extends unknown[]>(
  index: I,
  shards: number,
  key: (shard: number, ...rest: R) => IndexKey<I>,
): ShardedSpec<I, R> {
  return { index, shards, key };
}

/** Declares that an entity populates GSI `index` with the keys `key` builds. */
export function on<I extends IndexName, A extends unknown[]>(index: I, key: (...args: A) => IndexKey<I>): IndexSpec<I, A> {
  return { index, key };
}

type Attr<T> = Extract<keyof T, string>;

/**
 * When an item is among an access pattern's, and what it is filed under there. The writers
 * (functions/common/data/expressions.ts) keep the index keys to this on every put, and on every
 * update that changes an attribute in `uses`: in the same write they set the keys, or remove them
 * from an item that no longer belongs.
 */
export interface Membership<T> {
  /** Every attribute `when` and `args` read: a write that changes none of them leaves the index keys alone. */
  uses: readonly Attr<T>[];
  /** Whether the item belongs (absent: every item of the entity does). */
  when?: (item: T) => boolean;
  /**
   * The key builder's arguments for the item, in the builder's order. Absent when
   * the keys hold what no attribute does (a time the item is due): then a write that keeps the item
   * in the index gives the keys itself.
   */
  args?: (item: T) => readonly unknown[];
}

/**
 * What one write changes of an item, as the index keys see it: attributes it sets to a value,
 * attributes it sets to something computed from the stored item (unknown here), and attributes it removes.
 */
export interface ItemWrite {
  values: Readonly<Record<string, unknown>>;
  computed: readonly string[];
  removed: readonly string[];
}

/** An index key attribute the write copies from another of the item's attributes, as stored (`gsi4sk = createdAt`). */
export interface CopyOf {
  copyOf: string;
}

/** The index keys one write sets (or copies) and removes, so the item is filed where its membership says. */
export interface IndexWrites {
  set: Record<string, string | CopyOf>;
  remove: string[];
}

/** An item without the keys of the table's GSIs: what an item is before `withIndexKeys` files it. */
export type Unindexed<T> = Omit<T, `${IndexName}pk` | `${IndexName}sk`>;

type Bound<T, X> = {
  [N in keyof X]: X[N] extends ShardedSpec<infer I, infer R>
    ? ShardedPattern<T, I, R>
    : X[N] extends IndexSpec<infer I, infer A>
      ? AccessPattern<T, I, A>
      : never;
};

/** The membership of each access pattern that has one, by the pattern's name. */
export type Memberships<T, X> = { [N in keyof X]?: Membership<T> };

export interface Entity<T extends { entity: string }, K extends unknown[] = unknown[], X = object> {
  /** The `entity` attribute every item of this kind carries. */
  name: T['entity'];
  key: (...args: K) => ItemKey;
  /** The primary-key partition `key` names, narrowed to its sort key's prefix (as AccessPattern.range). */
  range: (...args: K) => KeyRange<T>;
  indexes: Bound<T, X>;
  /**
   * The partition keys of this entity's items, as IAM's dynamodb:LeadingKeys patterns
   * (tableKeyPattern, indexKeyPattern): `table`, the primary key's; `indexes`, each access pattern's GSI partition key,
   * by the pattern's name.
   */
  leadingKeys: { table: string; indexes: { [N in keyof X]: string } };
  /**
   * The item as it is put: with the keys of every index its memberships say it belongs to, and
   * without those of the ones it does not.
   */
  withIndexKeys(item: Unindexed<T>): T;
  /**
   * The index keys a write sets and removes, from the memberships whose attributes it changes:
   * `known` is what the writer knows of the stored item besides, and `stored` the whole item as
   * read (what lacks an attribute there is known to lack it), both held so by the write's condition.
   * Throws when a membership needs an attribute the write neither gives nor knows.
   */
  indexWrites(write: ItemWrite, known?: Partial<T>, stored?: T): IndexWrites;
  /** Type-only: never set. */
  readonly item?: T;
}

/** Any entity storing items of type `T`, whatever its key builders: what the expression builders take. */
export type EntityOf<T extends { entity: string }> = Pick<Entity<T>, 'name' | 'item' | 'withIndexKeys' | 'indexWrites'>;

/** The item type an entity stores. */
export type ItemOf<E> = E extends { readonly item?: infer T } ? T : never;

function rangeOf<T>(index: IndexName | undefined, key: Record<string, string>): KeyRange<T> {
  const pk = key[index ? `${index}pk` : 'pk']!;
  const sk = key[index ? `${index}sk` : 'sk'];
  return { ...(index ? { index } : {}), pk, ...(sk ? { sk: { beginsWith: sk } } : {}) };
}

/** One access pattern with its membership, as the writers use it. */
interface Filing {
  pattern: string;
  index: IndexName;
  key: (...args: unknown[]) => Record<string, string>;
  membership: Membership<Record<string, unknown>>;
}

/**
 * An attribute whose value a write does not know stands in its key builder's arguments as this
 * mark: a key attribute that is the mark alone is copied from the stored attribute in the write.
 */
const unknownMark = (attribute: string) => `\uE000${attribute}\uE000`;

/**
 * How an attribute the write does not give is read: absent (the write is the whole item), known to
 * the writer, or for a key's arguments also marked to be copied from the stored item.
 */
type Reading = 'whole' | 'known' | 'marking';

/**
 * The item after a write, as far as the write tells it: what a membership reads of it. An attribute
 * outside the membership's `uses`, or one nobody knows, is a mistake in the definition or the
 * writer, so it throws rather than file the item wrongly.
 */
function itemAfter(entity: string, filing: Filing, write: ItemWrite, known: Record<string, unknown>, reading: Reading, stored?: Record<string, unknown>) {
  return new Proxy({} as Record<string, unknown>, {
    get(_target, attribute) {
      if (typeof attribute !== 'string') return undefined;
      if (!filing.membership.uses.includes(attribute)) {
        throw new Error(`${entity}.${filing.pattern}: reads ${attribute}, which its "uses" leave out`);
      }
      if (write.removed.includes(attribute)) return undefined;
      if (Object.hasOwn(write.values, attribute) || reading === 'whole') return write.values[attribute];
      if (!write.computed.includes(attribute) && Object.hasOwn(known, attribute)) return known[attribute];
      if (!write.computed.includes(attribute) && stored) return stored[attribute];
      // The item's own key is never copied: a shard is hashed from it, and a mark hashes to a wrong shard in silence.
      if (reading === 'marking' && !write.computed.includes(attribute) && attribute !== 'pk' && attribute !== 'sk') return unknownMark(attribute);
      throw new Error(`${entity}.${filing.pattern}: a write changing its attributes needs ${attribute}, which it neither sets nor knows`);
    },
  });
}

/** The keys `filing` gives an item, marks of unknown attributes turned into copies of them. */
function builtKeys(entity: string, filing: Filing, args: readonly unknown[]): Record<string, string | CopyOf> {
  return Object.fromEntries(
    Object.entries(filing.key(...args)).map(([attribute, value]) => {
      const copied = /^\uE000([^\uE000]+)\uE000$/.exec(value);
      if (copied) return [attribute, { copyOf: copied[1]! }];
      const unknown = /\uE000([^\uE000]+)\uE000/.exec(value);
      if (unknown) throw new Error(`${entity}.${filing.pattern}: ${attribute} is built from ${unknown[1]}, which the write neither sets nor knows`);
      return [attribute, value];
    }),
  );
}

function indexKeyNames(index: IndexName): string[] {
  const { partitionKey, sortKey } = indexAttributes(index);
  return [partitionKey, sortKey];
}

/**
 * An argument no key builder can hold on its own: a key built from these shows where the arguments
 * begin, so the constant part before them is the pattern every such key matches.
 */
const ARGUMENT_MARK = '\uE001';
const markers = () => Array.from({ length: 8 }, () => ARGUMENT_MARK);

/**
 * The dynamodb:LeadingKeys pattern (IAM StringLike: `*` any run of characters) of a primary-key
 * builder's partition key: its constant part then `*` (`JOB#*`), or the key itself where it takes
 * no argument (`OWNER`).
 */
function tableKeyPattern(key: (...args: unknown[]) => ItemKey): string {
  const pk = key(...markers()).pk;
  const at = pk.indexOf(ARGUMENT_MARK);
  if (at === 0) throw new Error(`A partition key that begins with an argument matches every item: ${JSON.stringify(pk)}`);
  return at < 0 ? pk : `${pk.slice(0, at)}*`;
}

/**
 * The pattern of a GSI partition key: its first `#`-separated name then `*` (`WORKERJOBS*`,
 * `JOBS*`). Coarser than the table's on purpose: a list index may be split into numbered
 * partitions (`JOBS#3`) computed from the item rather than from an argument, and the name alone
 * matches the key before and after such a split. Only Queries of the indexes are granted on these,
 * so the coarseness reaches no item by its primary key.
 */
function indexKeyPattern(pk: string): string {
  const name = pk.split(ARGUMENT_MARK)[0]!.split('#')[0]!;
  if (!name) throw new Error(`An index partition key that begins with an argument matches every entry: ${JSON.stringify(pk)}`);
  return `${name}*`;
}

/**
 * `defineEntity<JobItem>()({ name: 'job', key, indexes, membership })`: the item type first
 * (explicit), then the definition, so the name is checked against the item's `entity` and the
 * builders are inferred.
 */
export function defineEntity<T extends { entity: string }>() {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the constraint only asks that each pattern names a GSI; the patterns' own types are inferred.
  return <K extends unknown[], X extends Record<string, IndexSpec<any, any>> = Record<never, never>>(def: {
    name: T['entity'];
    key: (...args: K) => ItemKey;
    indexes?: X;
    membership?: Memberships<T, X>;
  }): Entity<T, K, X> => {
    const specs: Record<string, IndexSpec<IndexName, unknown[]> & { shards?: number }> = def.indexes ?? {};
    const indexes = Object.fromEntries(
      Object.entries(specs).map(([name, spec]) => {
        const range = (...args: unknown[]) => rangeOf<T>(spec.index, spec.key(...args) as Record<string, string>);
        const shards = spec.shards;
        return [
          name,
          {
            ...spec,
            range,
            keysOf: (item: object) => {
              const [pk, sk] = indexKeyNames(spec.index).map((attribute) => (item as Record<string, string | undefined>)[attribute]);
              return pk === undefined && sk === undefined ? undefined : { pk, sk };
            },
            ...(shards === undefined
              ? {}
              : {
                  shardOf: (key: { pk: string }) => shardOf(key.pk, shards),
                  keyFor: (key: { pk: string }, ...rest: unknown[]) => spec.key(shardOf(key.pk, shards), ...rest),
                  ranges: (...rest: unknown[]) => Array.from({ length: shards }, (_, shard) => range(shard, ...rest)),
                }),
          },
        ];
      }),
    ) as Bound<T, X>;
    const filings: Filing[] = Object.entries(def.membership ?? {}).map(([pattern, membership]) => ({
      pattern,
      index: specs[pattern]!.index,
      key: specs[pattern]!.key as Filing['key'],
      membership: membership as Filing['membership'],
    }));
    // Patterns sharing a GSI are decided together: an item is in at most one of them at a time.
    const byIndex = new Map<IndexName, Filing[]>();
    for (const filing of filings) byIndex.set(filing.index, [...(byIndex.get(filing.index) ?? []), filing]);

    const belonging = (index: IndexName, of: Filing[], item: (filing: Filing) => Record<string, unknown>) => {
      const members = of.filter((filing) => filing.membership.when?.(item(filing)) ?? true);
      if (members.length > 1) throw new Error(`${def.name}: belongs to ${members.map((f) => f.pattern).join(' and ')} at once, both on ${index}`);
      return members[0];
    };

    return {
      name: def.name,
      key: def.key,
      range: (...args: K) => rangeOf<T>(undefined, def.key(...args) as unknown as Record<string, string>),
      indexes,
      leadingKeys: {
        table: tableKeyPattern(def.key as (...args: unknown[]) => ItemKey),
        indexes: Object.fromEntries(
          Object.entries(specs).map(([name, spec]) => [name, indexKeyPattern((spec.key as (...args: unknown[]) => Record<string, string>)(...markers())[`${spec.index}pk`]!)]),
        ) as { [N in keyof X]: string },
      },
      withIndexKeys(item: Unindexed<T>): T {
        const filed: Record<string, unknown> = { ...item };
        const stored = item as unknown as Record<string, unknown>;
        const write: ItemWrite = { values: stored, computed: [], removed: [] };
        for (const [index, of] of byIndex) {
          const member = belonging(index, of, (filing) => itemAfter(def.name, filing, write, {}, 'whole'));
          if (!member) {
            for (const attribute of indexKeyNames(index)) delete filed[attribute];
          } else if (member.membership.args) {
            Object.assign(filed, member.key(...member.membership.args(itemAfter(def.name, member, write, {}, 'whole'))));
          } else if (indexKeyNames(index).some((attribute) => typeof stored[attribute] !== 'string')) {
            throw new Error(`${def.name}.${member.pattern}: an item among them carries its keys`);
          }
        }
        return filed as T;
      },
      indexWrites(write: ItemWrite, known: Partial<T> = {}, stored?: T): IndexWrites {
        const changed = new Set([...Object.keys(write.values), ...write.computed, ...write.removed]);
        const out: IndexWrites = { set: {}, remove: [] };
        const knownItem = known as Record<string, unknown>;
        const storedItem = stored as Record<string, unknown> | undefined;
        for (const [index, of] of byIndex) {
          if (!of.some((filing) => filing.membership.uses.some((attribute) => changed.has(attribute)))) continue;
          const member = belonging(index, of, (filing) => itemAfter(def.name, filing, write, knownItem, 'known', storedItem));
          if (!member) {
            out.remove.push(...indexKeyNames(index));
          } else if (member.membership.args) {
            Object.assign(out.set, builtKeys(def.name, member, member.membership.args(itemAfter(def.name, member, write, knownItem, 'marking', storedItem))));
          } else if (indexKeyNames(index).some((attribute) => typeof write.values[attribute] !== 'string')) {
            throw new Error(`${def.name}.${member.pattern}: a write that keeps the item among them gives its keys`);
          }
        }
        return out;
      },
    };
  };
}

/** What the grants read of an entity: the patterns of its partition keys. */
export interface KeyedEntity {
  name: string;
  leadingKeys: { table: string; indexes: Readonly<Record<string, string>> };
}

/**
 * What a module that sends commands to the table touches, by entity: those it reads (GetItem,
 * Query of the table or of the entity's indexes) and those it writes (a put, update or delete,
 * conditional or in a transaction). Every such module exports one as `tableUse`; the stack's grant
 * generator (infra/table-grants.ts) reads it from the source, so each entry is an entity's export
 * name from shared/entities, written as is.
 */
export interface TableUse {
  reads: readonly KeyedEntity[];
  writes: readonly KeyedEntity[];
}

export function declareTableUse(use: { reads?: readonly KeyedEntity[]; writes?: readonly KeyedEntity[] }): TableUse {
  return { reads: use.reads ?? [], writes: use.writes ?? [] };
}
