import { functionAreas } from '../../shared/function-files';
import { recurring, routes, socketRoutes, streamConsumers, timers, type Access, type TableAccess } from '../../shared/routes';
import { keyPatternsOf, likeMatches, type KeyPatterns } from '../table-grants';

/**
 * What the table grant check (table-grant-check.ts) reads of a command, and how it judges it.
 *
 * The table grants checked while the handlers' tests run: dynalite ignores IAM, so a partition key
 * a function's generated grant (infra/table-grants.ts) leaves out would fail only in AWS. A
 * middleware on the document client records every partition key each command names, with the
 * function whose invocation sent it (the handler wrappers name it, functions/common/logger.ts), and
 * a test whose handler touched a key outside its function's patterns, or wrote where its access
 * level does not, fails. Commands sent outside a handler (a test preparing items) belong to no
 * function and are not checked.
 */

const entries: { name: string; table: TableAccess; access?: Access }[] = [
  ...(routes as readonly { name: string; table: TableAccess; access: Access }[]),
  ...socketRoutes,
  ...timers,
  ...recurring,
  ...streamConsumers,
  { name: 'record-mail-feedback', table: 'write' },
];
const patternsCache = new Map<string, KeyPatterns>();

export interface Touch {
  pk: string;
  index?: string;
  write: boolean;
}

export type Value = unknown;
/** A key attribute's value, as the document client takes it or marshalled ({ S: '…' }). */
const text = (value: Value): string | undefined =>
  typeof value === 'string' ? value : value && typeof value === 'object' && typeof (value as { S?: unknown }).S === 'string' ? (value as { S: string }).S : undefined;

/** The partition key value a Query's key condition names. */
function queried(input: Record<string, Value>): Touch | undefined {
  const index = input.IndexName as string | undefined;
  const attribute = index ? `${index}pk` : 'pk';
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, Value>;
  for (const [, name, placeholder] of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[name!] ?? name) === attribute) {
      const pk = text(values[placeholder!]);
      if (pk !== undefined) return { pk, ...(index ? { index } : {}), write: false };
    }
  }
  return undefined;
}

/** Every partition key a command names, and whether it writes there. */
export function touches(command: string, input: Record<string, Value>): Touch[] | 'scan' {
  const pkOf = (item: Value) => text((item as Record<string, Value> | undefined)?.pk);
  const at = (item: Value, write: boolean): Touch[] => {
    const pk = pkOf(item);
    return pk === undefined ? [] : [{ pk, write }];
  };
  switch (command) {
    case 'GetCommand':
    case 'GetItemCommand':
      return at(input.Key, false);
    case 'PutCommand':
    case 'PutItemCommand':
      return at(input.Item, true);
    case 'UpdateCommand':
    case 'UpdateItemCommand':
    case 'DeleteCommand':
    case 'DeleteItemCommand':
      return at(input.Key, true);
    case 'QueryCommand': {
      const found = queried(input);
      return found ? [found] : [];
    }
    case 'ScanCommand':
      return 'scan';
    case 'BatchGetCommand':
    case 'BatchGetItemCommand':
      return Object.values((input.RequestItems ?? {}) as Record<string, { Keys: Value[] }>).flatMap((r) => r.Keys.flatMap((key) => at(key, false)));
    case 'BatchWriteCommand':
    case 'BatchWriteItemCommand':
      return Object.values((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Value }; DeleteRequest?: { Key: Value } }[]>).flatMap((requests) =>
        requests.flatMap((r) => at(r.PutRequest?.Item ?? r.DeleteRequest?.Key, true)),
      );
    case 'TransactWriteCommand':
    case 'TransactWriteItemsCommand':
      return ((input.TransactItems ?? []) as Record<string, { Item?: Value; Key?: Value }>[]).flatMap((action) => [
        ...at(action.Put?.Item, true),
        ...at(action.Update?.Key, true),
        ...at(action.Delete?.Key, true),
        ...at(action.ConditionCheck?.Key, false),
      ]);
    case 'TransactGetCommand':
    case 'TransactGetItemsCommand':
      return ((input.TransactItems ?? []) as { Get?: { Key: Value } }[]).flatMap((action) => at(action.Get?.Key, false));
    default:
      return [];
  }
}

function patternsOf(name: string): { patterns: KeyPatterns; table: TableAccess } | undefined {
  const entry = entries.find((e) => e.name === name);
  if (!entry || !functionAreas[name]) return undefined;
  let patterns = patternsCache.get(name);
  if (!patterns) {
    patterns = keyPatternsOf(name, entry.access);
    patternsCache.set(name, patterns);
  }
  return { patterns, table: entry.table };
}

/** Why a function may not send what it sent, or undefined when its grant allows it. */
export function refusal(name: string, command: string, touch: Touch): string | undefined {
  const grant = patternsOf(name);
  if (!grant) return undefined;
  const { patterns, table } = grant;
  const where = touch.index ? `${touch.index} ${touch.pk}` : touch.pk;
  if (touch.write && table !== 'write' && table !== 'readwrite') return `${name} (table: ${table}) writes ${where} with ${command}`;
  if (!touch.write && table === 'write') return `${name} (table: write) reads ${where} with ${command}`;
  const allowed = touch.index ? patterns.indexes : touch.write ? patterns.write : patterns.read;
  if (allowed.some((pattern) => likeMatches(pattern, touch.pk))) return undefined;
  return `${name} touches ${where} with ${command}, which its generated patterns (${allowed.join(' ') || 'none'}) do not match: declare the entity in the tableUse of the module that sends it`;
}

