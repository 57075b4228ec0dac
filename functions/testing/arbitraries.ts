import fc from 'fast-check';
import type { Schema } from '../../shared/validation';

/**
 * fast-check arbitraries for hostile-input tests (functions/every-route/hostile-input.test.ts): values built
 * from a zod schema's own definition (valid and boundary values) and garbage of every kind.
 */

/** Strings that have broken servers: prototype keys, traversal, injections, control and odd Unicode. */
export const nastyStrings: readonly string[] = [
  '',
  ' ',
  '   \t\n',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '\u0000',
  '\u0000abc',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Egnp.exe',
  '\uFEFF',
  '👩‍🔧🔧',
  'ｆｕｌｌｗｉｄｔｈ',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1",
  '${jndi:ldap://x}',
  '{{7*7}}',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '-0',
  '9007199254740993',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  'WORKER#x',
  'JOB#',
  '#',
  'a'.repeat(1025),
  'a'.repeat(70_000),
];

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
);

/** Any JSON-ish value of the wrong kind: numbers out of range, nesting, nulls, arrays. */
export const garbageValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, [], {}) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(nested(200)) },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":true}}}') as unknown) },
);

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Request bodies no JSON parser or validator should stumble on. */
export const rawGarbageBodies: readonly string[] = [
  '{"a":',
  '{,}',
  "{'single': 'quotes'}",
  'null',
  '[]',
  '"text"',
  '12345',
  'true',
  '{"__proto__":{"isAdmin":true,"status":"active"}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  `{"big":"${'x'.repeat(66_000)}"}`,
  '\u0000\u0001\u0002',
];

interface Def {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  shape?: Record<string, Schema>;
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: Schema;
  out?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  items?: Schema[];
}

const defOf = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) => (def.checks ?? []).map((c) => c._zod.def);

/** Values the schema describes, lengths and ranges at and just past their limits. */
export function fromSchema(schema: Schema): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const checks = checksOf(def);
  const num = (name: string) => checks.find((c) => c.check === name) as { minimum?: number; maximum?: number; value?: number; inclusive?: boolean; format?: string; pattern?: RegExp } | undefined;
  switch (def.type) {
    case 'string': {
      const min = num('min_length')?.minimum ?? 0;
      const max = num('max_length')?.maximum ?? Math.max(min, 64);
      const format = checks.find((c) => c.check === 'string_format') as { format: string; pattern?: RegExp } | undefined;
      const boundary = fc.constantFrom(...[min - 1, min, max, max + 1].filter((n) => n >= 0)).map((n) => 'a'.repeat(n));
      const valid =
        format?.format === 'email'
          ? fc.emailAddress()
          : format?.format === 'regex' && format.pattern
            ? fc.stringMatching(format.pattern, { maxLength: max })
            : fc.string({ minLength: min, maxLength: Math.min(max, min + 80) });
      return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: boundary });
    }
    case 'number':
    case 'int': {
      const gt = num('greater_than');
      const lt = num('less_than');
      const lo = gt?.value ?? -1e6;
      const hi = lt?.value ?? 1e6;
      const isInt = def.type === 'int' || checks.some((c) => c.check === 'number_format' && String(c.format).includes('int'));
      const valid = isInt ? fc.integer({ min: Math.ceil(Math.max(lo, -(2 ** 31))), max: Math.floor(Math.min(hi, 2 ** 31)) }) : fc.double({ min: lo, max: hi, noNaN: true });
      return fc.oneof(
        { weight: 3, arbitrary: valid },
        { weight: 1, arbitrary: fc.constantFrom(lo, hi, lo - 0.5, hi + 0.5, 0, -0, 0.1) },
        { weight: 1, arbitrary: fc.constantFrom(...extremeNumbers) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { none: 'none' }));
    case 'optional':
      return fc.option(fromSchema(def.innerType!), { nil: undefined });
    case 'nullable':
      return fc.option(fromSchema(def.innerType!), { nil: null });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return fromSchema(def.innerType!);
    case 'pipe':
      return fromSchema(def.in!);
    case 'array': {
      const min = num('min_length')?.minimum ?? 0;
      const max = num('max_length')?.maximum ?? Math.max(min, 5);
      return fc.array(fromSchema(def.element!), { minLength: min, maxLength: Math.min(max + 1, min + 6) });
    }
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map(fromSchema));
    case 'union':
      return fc.oneof(...(def.options ?? []).map(fromSchema));
    case 'object': {
      const shape = def.shape ?? {};
      return fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, fromSchema(v)])), { requiredKeys: [] });
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), fromSchema(def.valueType!), { maxKeys: 4 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Numbers JSON can carry that no field of ours means, each a 500 once: past 2^53 the SDK refuses to
 * write them, past 1e125 or below 1e-130 DynamoDB does.
 */
export const extremeNumbers: readonly number[] = [1e100, -1e100, 2 ** 53, -(2 ** 53), 1e21, 9.99e124, 1e-200];

/** The body's fields that take a number (through optional, nullable and default wrappers). */
export function numberFieldsOf(schema: Schema): string[] {
  const isNumber = (field: Schema): boolean => {
    const def = defOf(field);
    if (def.type === 'number' || def.type === 'int') return true;
    if (def.type === 'union') return (def.options ?? []).some(isNumber);
    return def.innerType ? isNumber(def.innerType) : false;
  };
  return Object.entries(fieldsOf(schema))
    .filter(([, field]) => isNumber(field))
    .map(([name]) => name);
}

/** The object schema's field names (through optional/pipe wrappers), for per-field mutation. */
export function fieldsOf(schema: Schema): Record<string, Schema> {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? {};
  if (def.type === 'pipe') return fieldsOf(def.in!);
  if (def.innerType) return fieldsOf(def.innerType);
  return {};
}

/**
 * Bodies near a known-good one: each field kept, dropped, replaced by a schema value (valid or at
 * a boundary) or by garbage, sometimes with an extra key. Mostly valid, so the handler's logic runs.
 */
export function mutatedBody(schema: Schema, sample: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const fields = { ...Object.fromEntries(Object.keys(sample).map((k) => [k, undefined])), ...fieldsOf(schema) } as Record<string, Schema | undefined>;
  const perField = Object.fromEntries(
    Object.entries(fields).map(([name, fieldSchema]) => {
      const options: fc.WeightedArbitrary<unknown>[] = [
        { weight: 6, arbitrary: fc.constant(sample[name]) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: garbageValue },
      ];
      if (fieldSchema) options.push({ weight: 3, arbitrary: fromSchema(fieldSchema) });
      return [name, fc.oneof(...options)];
    }),
  );
  const extra = fc.option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'status', 'isAdmin', 'workerId', 'pk'), garbageValue), { freq: 4 });
  return fc.tuple(fc.record(perField), extra).map(([body, more]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) if (v !== undefined) out[k] = v;
    // defineProperty: a literal "__proto__" key would set the prototype instead of a field.
    if (more) Object.defineProperty(out, more[0], { value: more[1], enumerable: true, configurable: true, writable: true });
    return out;
  });
}
