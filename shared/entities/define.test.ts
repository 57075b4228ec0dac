import { describe, expect, it } from 'vitest';
import { defineEntity, on } from './define';

/** A small entity with a sparse index whose membership and keys follow from the item's own attributes. */
interface TaskItem {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  entity: 'task';
  id: string;
  owner: string;
  status: 'open' | 'done';
  dueAt: string;
  createdAt: string;
}

const taskEntity = defineEntity<TaskItem>()({
  name: 'task',
  key: (id: string) => ({ pk: `TASK#${id}`, sk: 'TASK' }),
  indexes: {
    byOwner: on('gsi1', (owner: string, createdAt = '') => ({ gsi1pk: `OWNER#${owner}`, gsi1sk: `TASK#${createdAt}` })),
    open: on('gsi2', (dueAt = '') => ({ gsi2pk: 'OPEN', gsi2sk: dueAt })),
  },
  membership: {
    byOwner: { uses: ['owner', 'createdAt'], args: (t) => [t.owner, t.createdAt] },
    open: { uses: ['status', 'dueAt'], when: (t) => t.status === 'open', args: (t) => [t.dueAt] },
  },
});

const task = (status: TaskItem['status']) =>
  taskEntity.withIndexKeys({ ...taskEntity.key('t1'), entity: 'task', id: 't1', owner: 'o1', status, dueAt: '2026-01-02', createdAt: '2026-01-01' });

const write = (values: Record<string, unknown>, removed: string[] = [], computed: string[] = []) => ({ values, removed, computed });

describe('defineEntity: index membership', () => {
  it('files a new item under the keys of every index it belongs to, and no other', () => {
    // Act
    const open = task('open');
    const done = task('done');

    // Assess
    expect(open).toMatchObject({ gsi1pk: 'OWNER#o1', gsi1sk: 'TASK#2026-01-01', gsi2pk: 'OPEN', gsi2sk: '2026-01-02' });
    expect(done).toMatchObject({ gsi1pk: 'OWNER#o1', gsi1sk: 'TASK#2026-01-01' });
    expect(done).not.toHaveProperty('gsi2pk');
    expect(done).not.toHaveProperty('gsi2sk');
  });

  it('takes out of an index, in the same write, an item that stops belonging to it', () => {
    // Act
    const writes = taskEntity.indexWrites(write({ status: 'done' }));

    // Assess
    expect(writes).toEqual({ set: {}, remove: ['gsi2pk', 'gsi2sk'] });
  });

  it('files an item that starts belonging to an index, its keys built from what it knows of the item', () => {
    // Act
    const writes = taskEntity.indexWrites(write({ status: 'open' }), { dueAt: '2026-03-04' });

    // Assess
    expect(writes).toEqual({ set: { gsi2pk: 'OPEN', gsi2sk: '2026-03-04' }, remove: [] });
  });

  it('reads what the write does not give from the item as the writer read it', () => {
    // Prepare
    const read = task('done');

    // Act
    const writes = taskEntity.indexWrites(write({ status: 'open' }), {}, read);

    // Assess
    expect(writes).toEqual({ set: { gsi2pk: 'OPEN', gsi2sk: '2026-01-02' }, remove: [] });
  });

  it('copies a key that is one stored attribute when the write does not know it', () => {
    // Act
    const writes = taskEntity.indexWrites(write({ status: 'open' }));

    // Assess
    expect(writes).toEqual({ set: { gsi2pk: 'OPEN', gsi2sk: { copyOf: 'dueAt' } }, remove: [] });
  });

  it('files the item again when an attribute its keys are built from changes', () => {
    // Act
    const writes = taskEntity.indexWrites(write({ owner: 'o2' }), { createdAt: '2026-01-01' });

    // Assess
    expect(writes).toEqual({ set: { gsi1pk: 'OWNER#o2', gsi1sk: 'TASK#2026-01-01' }, remove: [] });
  });

  it('leaves the index keys alone when the write changes nothing a membership reads', () => {
    // Act / Assess
    expect(taskEntity.indexWrites(write({ pk: 'x' }, ['sk']))).toEqual({ set: {}, remove: [] });
  });

  it('refuses a write whose membership needs what it neither sets nor knows', () => {
    // Act / Assess: the owner's partition is more than one attribute, so it cannot be copied
    expect(() => taskEntity.indexWrites(write({ owner: 'o2' }))).toThrow(/createdAt/);
    // The status is computed from the stored item: nobody knows it here.
    expect(() => taskEntity.indexWrites(write({}, [], ['status']))).toThrow(/status/);
  });

  it('takes an item out when the attribute its membership needs is removed', () => {
    // Act
    const writes = taskEntity.indexWrites(write({}, ['status']));

    // Assess
    expect(writes).toEqual({ set: {}, remove: ['gsi2pk', 'gsi2sk'] });
  });

  it('reads the keys an item carries on a pattern, or none', () => {
    // Act / Assess
    expect(taskEntity.indexes.open.keysOf(task('open'))).toEqual({ pk: 'OPEN', sk: '2026-01-02' });
    expect(taskEntity.indexes.open.keysOf(task('done'))).toBeUndefined();
  });
});

describe('defineEntity: the patterns of its partition keys (IAM dynamodb:LeadingKeys)', () => {
  it("gives the primary key's constant part then *, and a key without arguments as it is", () => {
    // Prepare
    const fixed = defineEntity<{ entity: 'one' }>()({ name: 'one', key: () => ({ pk: 'ONE', sk: 'ONE' }) });

    // Act / Assess
    expect(taskEntity.leadingKeys.table).toBe('TASK#*');
    expect(fixed.leadingKeys.table).toBe('ONE');
  });

  it("gives each index pattern's partition key as its first name then *, which matches it split into numbered partitions too", () => {
    // Prepare
    const sharded = defineEntity<{ entity: 'row' }>()({
      name: 'row',
      key: (id: string) => ({ pk: `ROW#${id}`, sk: 'ROW' }),
      indexes: { all: on('gsi3', (shard: number, at = '') => ({ gsi3pk: `ROWS#${shard}`, gsi3sk: at })) },
    });

    // Act / Assess
    expect(taskEntity.leadingKeys.indexes).toEqual({ byOwner: 'OWNER*', open: 'OPEN*' });
    expect(sharded.leadingKeys.indexes).toEqual({ all: 'ROWS*' });
  });

  it('refuses a key whose partition begins with an argument: its pattern would match every item', () => {
    // Act / Assess
    expect(() => defineEntity<{ entity: 'any' }>()({ name: 'any', key: (id: string) => ({ pk: id, sk: 'X' }) })).toThrow(/matches every item/);
  });
});
