import type { EntityOf, IndexWrites, ItemKey, Unindexed } from '../../../shared/entities';
import { tableName } from '../clients';

/**
 * Update and condition expressions built from an entity's item type, so every attribute an
 * expression names, and the value it compares or sets, is checked against the item it is about:
 *
 *   updateOf(jobEntity, jobEntity.key(id), {
 *     set: { state: 'accepted', acceptedBy: workerId, version: increment() },
 *     known: { cancelledAt: undefined },
 *     if: (c) => c.and(c.eq('state', 'offered'), c.gt(c.entry('offers', workerId), now)),
 *   })
 *
 * Every attribute is written as a name placeholder (#state), so reserved words never matter, and
 * every value as its own value placeholder (:v0, :v1, ...). The result is the parameters of an
 * UpdateCommand or of a transaction's Update action, as they are.
 *
 * The index keys follow the entity's memberships (shared/entities/define.ts): an update that changes
 * what one of them reads sets the item's keys there, or removes them, in the same expression, and a
 * put writes the item with exactly the keys of the indexes it belongs to.
 */

type Attr<T> = Extract<keyof T, string>;

/** Placeholders of one expression (update and condition share them, as do a Query's key condition and filter). */
export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private entries = 0;
  private numbered = 0;

  name(attribute: string): string {
    // A name a placeholder cannot spell (a stats counter such as "funnel:paid") is numbered instead.
    const spelled = /^[A-Za-z0-9_]+$/.test(attribute);
    const placeholder = spelled
      ? `#${attribute}`
      : (Object.keys(this.names).find((k) => k.startsWith('#a') && this.names[k] === attribute) ?? `#a${this.numbered++}`);
    this.names[placeholder] = attribute;
    return placeholder;
  }

  /** A key of a map attribute (a worker id in a job's offers): named by position, whatever its characters. */
  entry(attribute: string, key: string): string {
    const placeholder = `#e${this.entries++}`;
    this.names[placeholder] = key;
    return `${this.name(attribute)}.${placeholder}`;
  }

  value(value: unknown): string {
    const placeholder = `:v${Object.keys(this.values).length}`;
    this.values[placeholder] = value;
    return placeholder;
  }
}

/** What a SET assigns when it is not a plain value: computed from the attribute's own value. */
export class Computed {
  constructor(readonly render: (self: string, p: Placeholders) => string) {}
}

/** `attr = attr + by`: the attribute must exist (a missing one fails the write rather than starting at 0). */
export const increment = (by = 1) => new Computed((self, p) => `${self} + ${p.value(by)}`);
/** `attr = if_not_exists(attr, start) + by`: a counter that may not exist yet. */
export const incrementFrom = (start = 0, by = 1) => new Computed((self, p) => `if_not_exists(${self}, ${p.value(start)}) + ${p.value(by)}`);
/** `attr = if_not_exists(attr, value)`: set only when absent. */
export const ifNotExists = (value: unknown) => new Computed((self, p) => `if_not_exists(${self}, ${p.value(value)})`);
/** `attr = list_append(attr, items)`. */
export const listAppend = (items: readonly unknown[]) => new Computed((self, p) => `list_append(${self}, ${p.value(items)})`);
/** `attr = other`: another attribute's value, as stored at the moment of the write. */
export const valueOf = (attribute: string) => new Computed((_self, p) => p.name(attribute));

/** A condition, rendered into the placeholders of the expression it belongs to. */
export class Condition {
  constructor(readonly render: (p: Placeholders) => string) {}
}

/** A key inside a map attribute, as a condition's operand. */
export class Entry {
  constructor(readonly attribute: string, readonly key: string) {}
}

type Operand<T> = Attr<T> | Entry;
const operand = (p: Placeholders, a: string | Entry) => (a instanceof Entry ? p.entry(a.attribute, a.key) : p.name(a));
type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';
const compare = (a: string | Entry, op: Comparator, value: unknown) => new Condition((p) => `${operand(p, a)} ${op} ${p.value(value)}`);
/** Leaves out the `false`/`undefined` of a condition given only in some cases. */
const present = (cs: readonly (Condition | false | undefined)[]) => cs.filter((c): c is Condition => c instanceof Condition);

/** The condition builder `if: (c) => ...` receives, typed by the entity's item. */
export interface Conditions<T> {
  exists(a: Operand<T>): Condition;
  notExists(a: Operand<T>): Condition;
  eq<K extends Attr<T>>(a: K, value: T[K]): Condition;
  eq(a: Entry, value: unknown): Condition;
  ne<K extends Attr<T>>(a: K, value: T[K]): Condition;
  ne(a: Entry, value: unknown): Condition;
  lt<K extends Attr<T>>(a: K, value: NonNullable<T[K]>): Condition;
  lt(a: Entry, value: unknown): Condition;
  le<K extends Attr<T>>(a: K, value: NonNullable<T[K]>): Condition;
  le(a: Entry, value: unknown): Condition;
  gt<K extends Attr<T>>(a: K, value: NonNullable<T[K]>): Condition;
  gt(a: Entry, value: unknown): Condition;
  ge<K extends Attr<T>>(a: K, value: NonNullable<T[K]>): Condition;
  ge(a: Entry, value: unknown): Condition;
  /** `a IN (v1, v2, ...)`. */
  oneOf<K extends Attr<T>>(a: K, values: readonly T[K][]): Condition;
  /** A string set or list attribute holding `value` (or a string attribute containing it). */
  contains(a: Attr<T>, value: unknown): Condition;
  /** `attribute_type(a, type)`: e.g. 'NULL' for an attribute stored as null. */
  hasType(a: Attr<T>, type: 'NULL' | 'S' | 'N' | 'BOOL' | 'M' | 'L' | 'SS'): Condition;
  /** A key inside a map attribute (an offer by worker id, a claim's field). */
  entry(a: Attr<T>, key: string): Entry;
  and(...cs: (Condition | false | undefined)[]): Condition;
  or(...cs: (Condition | false | undefined)[]): Condition;
  not(c: Condition): Condition;
}

const conditions: Conditions<Record<string, unknown>> = {
  exists: (a) => new Condition((p) => `attribute_exists(${operand(p, a)})`),
  notExists: (a) => new Condition((p) => `attribute_not_exists(${operand(p, a)})`),
  eq: (a: string | Entry, v: unknown) => compare(a, '=', v),
  ne: (a: string | Entry, v: unknown) => compare(a, '<>', v),
  lt: (a: string | Entry, v: unknown) => compare(a, '<', v),
  le: (a: string | Entry, v: unknown) => compare(a, '<=', v),
  gt: (a: string | Entry, v: unknown) => compare(a, '>', v),
  ge: (a: string | Entry, v: unknown) => compare(a, '>=', v),
  oneOf: (a, values) => new Condition((p) => `${p.name(a)} IN (${values.map((v) => p.value(v)).join(', ')})`),
  contains: (a, v) => new Condition((p) => `contains(${p.name(a)}, ${p.value(v)})`),
  hasType: (a, type) => new Condition((p) => `attribute_type(${p.name(a)}, ${p.value(type)})`),
  entry: (a, key) => new Entry(a, key),
  and: (...cs) => new Condition((p) => present(cs).map((c) => `(${c.render(p)})`).join(' AND ')),
  or: (...cs) => new Condition((p) => present(cs).map((c) => `(${c.render(p)})`).join(' OR ')),
  not: (c) => new Condition((p) => `NOT (${c.render(p)})`),
};

export type ConditionOf<T> = (c: Conditions<T>) => Condition;

/** Renders a condition into `p`'s placeholders. */
export function renderCondition<T>(condition: ConditionOf<T>, p: Placeholders): string {
  return condition(conditions as unknown as Conditions<T>).render(p);
}

/** What an update changes, by attribute of the entity's item. */
export interface UpdateSpec<T> {
  /** SET: a value (undefined leaves the attribute alone) or a Computed (increment(), ...). */
  set?: { [K in Attr<T>]?: T[K] | Computed };
  /** SET of keys inside a map attribute: `offers.<worker> = <expiry>`. */
  setEntries?: { [K in Attr<T>]?: Record<string, unknown> };
  remove?: readonly Attr<T>[];
  /** REMOVE of keys inside a map attribute. */
  removeEntries?: { [K in Attr<T>]?: readonly string[] };
  /** ADD: a number to a number, or members to a string set. */
  add?: { [K in Attr<T>]?: number | Set<string> };
  /** DELETE: members from a string set. */
  delete?: { [K in Attr<T>]?: Set<string> };
  /** The condition the write needs to hold, or it does not happen (ConditionalCheckFailed). */
  if?: ConditionOf<T>;
  /**
   * What the writer knows of the stored item besides what it sets (an attribute as undefined: known
   * to be absent), held so by the condition: what an index membership reads when the update
   * changes one of its attributes. Never written.
   */
  known?: Partial<T>;
  /** The whole item as the writer read it, held so by the condition (a version, a state): as `known`, and what it lacks is absent. */
  stored?: T;
}

/** The parameters of an UpdateCommand or a transaction's Update, built for entity item `T`. */
export interface Update<T> {
  TableName: string;
  Key: ItemKey;
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
  /** Type-only: never set. */
  readonly item?: T;
}

const defined = <V>(record: Partial<Record<string, V>> | undefined) =>
  Object.entries(record ?? {}).filter((e): e is [string, V] => e[1] !== undefined);

function finish(p: Placeholders) {
  return {
    ExpressionAttributeNames: p.names,
    ...(Object.keys(p.values).length ? { ExpressionAttributeValues: p.values } : {}),
  };
}

/** The index keys an update sets and removes, by the entity's memberships. */
function indexWritesOf<T extends { entity: string }>(entity: EntityOf<T>, key: ItemKey, spec: UpdateSpec<T>): IndexWrites {
  const assigned = defined<unknown>(spec.set);
  return entity.indexWrites(
    {
      values: Object.fromEntries(assigned.filter(([, v]) => !(v instanceof Computed))),
      computed: [...assigned.filter(([, v]) => v instanceof Computed).map(([a]) => a), ...Object.keys(spec.add ?? {}), ...Object.keys(spec.delete ?? {})],
      removed: spec.remove ?? [],
    },
    // The item's key is known to every update: a write-sharded index's shard is hashed from it.
    { ...key, ...spec.known } as unknown as Partial<T>,
    spec.stored,
  );
}

/** An update of one item of `entity`. */
export function updateOf<T extends { entity: string }>(entity: EntityOf<T>, key: ItemKey, spec: UpdateSpec<T>): Update<T> {
  const p = new Placeholders();
  const filed = indexWritesOf(entity, key, spec);
  const twice = Object.keys(filed.set).filter((a) => spec.set?.[a as Attr<T>] !== undefined);
  if (twice.length) throw new Error(`${entity.name}: the update sets ${twice.join(', ')}, which the entity's membership writes`);
  const assigned: [string, unknown][] = [
    ...defined<unknown>(spec.set),
    ...Object.entries(filed.set).map(([a, v]): [string, unknown] => [a, typeof v === 'string' ? v : valueOf(v.copyOf)]),
  ];
  const sets = [
    ...assigned.map(([a, v]) => {
      const self = p.name(a);
      return `${self} = ${v instanceof Computed ? v.render(self, p) : p.value(v)}`;
    }),
    ...defined<Record<string, unknown>>(spec.setEntries).flatMap(([a, entries]) =>
      Object.entries(entries).map(([k, v]) => `${p.entry(a, k)} = ${p.value(v)}`),
    ),
  ];
  const removes = [
    ...[...(spec.remove ?? []), ...filed.remove.filter((a) => !(spec.remove ?? []).includes(a as Attr<T>))].map((a) => p.name(a)),
    ...defined<readonly string[]>(spec.removeEntries).flatMap(([a, ks]) => ks.map((k) => p.entry(a, k))),
  ];
  const adds = defined<unknown>(spec.add).map(([a, v]) => `${p.name(a)} ${p.value(v)}`);
  const deletes = defined<unknown>(spec.delete).map(([a, v]) => `${p.name(a)} ${p.value(v)}`);
  const clauses = [
    sets.length && `SET ${sets.join(', ')}`,
    removes.length && `REMOVE ${removes.join(', ')}`,
    adds.length && `ADD ${adds.join(', ')}`,
    deletes.length && `DELETE ${deletes.join(', ')}`,
  ].filter(Boolean);
  if (clauses.length === 0) throw new Error('An update must change something');
  const condition = spec.if && renderCondition(spec.if, p);
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: clauses.join(' '),
    ...(condition ? { ConditionExpression: condition } : {}),
    ...finish(p),
  };
}

/** A condition alone, for a Put, a Delete or a ConditionCheck of an item of `entity`. */
export function conditionOf<T extends { entity: string }>(
  _entity: EntityOf<T>,
  condition: ConditionOf<T>,
): { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
  const p = new Placeholders();
  const ConditionExpression = renderCondition(condition, p);
  return { ConditionExpression, ...finish(p) };
}

/** A put of a whole item of `entity`, conditional when `condition` is given. */
export function putOf<T extends { entity: string }>(entity: EntityOf<T>, item: T, condition?: ConditionOf<T>) {
  return { TableName: tableName, Item: entity.withIndexKeys(item as Unindexed<T>) as T & Record<string, unknown>, ...(condition ? conditionOf(entity, condition) : {}) };
}

/** A delete of one item of `entity`, conditional when `condition` is given. */
export function deleteOf<T extends { entity: string }>(entity: EntityOf<T>, key: ItemKey, condition?: ConditionOf<T>) {
  return { TableName: tableName, Key: key, ...(condition ? conditionOf(entity, condition) : {}) };
}

/** The put that creates an item only if its key is new (a conditional put on the item's absence). */
export const isNew = <T>(c: Conditions<T>) => c.notExists('pk' as Attr<T>);
