import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as entities from '../shared/entities';
import type { KeyedEntity } from '../shared/entities';
import { functionFile } from '../shared/function-files';
import type { Access } from '../shared/route-types';

/**
 * The table's partition keys each function touches, generated from the code rather than listed by
 * hand. Every module that sends commands to the table exports a `tableUse` declaration (the
 * entities it reads and writes, shared/entities/define.ts declareTableUse); a function's keys are
 * the union of the declarations of the modules its handler loads, found by walking the static
 * imports from its handler file. Read from the source text, so it runs at synth, offline, in
 * milliseconds, and loads none of the functions' code.
 *
 * The handler stack (functions/common/http.ts) loads every way of identifying a caller, but a route
 * runs only the one its access level names: its `callerModules` say which modules that is, and the
 * walk follows those instead of the stack's own imports.
 */

const repoRoot = path.resolve(import.meta.dirname, '..');
const HANDLER_STACK = 'functions/common/http.ts';

/** The patterns (IAM dynamodb:LeadingKeys, StringLike) of what one function touches. */
export interface KeyPatterns {
  /** Table partition keys it reads (what it writes included: a write's condition reads too). */
  read: string[];
  /** Table partition keys it writes. */
  write: string[];
  /** GSI partition keys it may Query. */
  indexes: string[];
}

interface ModuleFacts {
  /** The repository's modules it loads at run time (type-only imports load nothing). */
  imports: string[];
  /** Its `tableUse` declaration, by entity export name; undefined where it declares none. */
  use?: { reads: string[]; writes: string[] };
  /** The handler stack's modules per access level (`callerModules`), repository-relative. */
  callerModules?: Partial<Record<Access, string[]>>;
  /** Whether it can send commands to the table: it imports `dynamo`, or a data primitive's value. */
  touchesTable: boolean;
}

const facts = new Map<string, ModuleFacts>();

/** What a module says about itself, read once per file (repository-relative path). */
export function moduleFacts(file: string): ModuleFacts {
  const known = facts.get(file);
  if (known) return known;
  const full = path.join(repoRoot, file);
  const source = ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports: string[] = [];
  let touchesTable = false;
  let use: ModuleFacts['use'];
  let callerModules: ModuleFacts['callerModules'];
  const resolve = (specifier: string) => resolveModule(path.dirname(full), specifier);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const specifier = statement.moduleSpecifier.text;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const values = named?.filter((element) => !element.isTypeOnly).map((element) => (element.propertyName ?? element.name).text);
      const loadsValues = !clause || Boolean(clause.name) || !named || (values?.length ?? 0) > 0;
      if (!specifier.startsWith('.') || !loadsValues) continue;
      const target = resolve(specifier);
      if (!target) continue;
      imports.push(target);
      if (/^functions\/common\/clients\.ts$/.test(target) && values?.includes('dynamo')) touchesTable = true;
      if (/^functions\/common\/data\/[^/]+\.ts$/.test(target) && (values?.length ?? 1) > 0) touchesTable = true;
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (statement.isTypeOnly || !statement.moduleSpecifier.text.startsWith('.')) continue;
      const target = resolve(statement.moduleSpecifier.text);
      if (target) imports.push(target);
    } else if (ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        if (declaration.name.text === 'tableUse') use = declarationOf(file, declaration.initializer);
        if (declaration.name.text === 'callerModules') callerModules = callerModulesOf(file, declaration.initializer, resolve);
      }
    }
  }
  const found: ModuleFacts = { imports: [...new Set(imports)], use, callerModules, touchesTable };
  facts.set(file, found);
  return found;
}

/** `declareTableUse({ reads: [aEntity], writes: [bEntity] })`, as entity export names. */
function declarationOf(file: string, node: ts.Expression): { reads: string[]; writes: string[] } {
  const fail = (why: string): never => {
    throw new Error(`${file}: tableUse must be declareTableUse({ reads: [...], writes: [...] }) naming entities of shared/entities: ${why}`);
  };
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'declareTableUse') return fail('not a declareTableUse call');
  const argument = node.arguments[0];
  if (!argument || !ts.isObjectLiteralExpression(argument)) return fail('its argument is not an object literal');
  const out = { reads: [] as string[], writes: [] as string[] };
  for (const property of argument.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) return fail('a property is not `name: [...]`');
    const key = property.name.text;
    if (key !== 'reads' && key !== 'writes') return fail(`unknown property ${key}`);
    if (!ts.isArrayLiteralExpression(property.initializer)) return fail(`${key} is not an array literal`);
    for (const element of property.initializer.elements) {
      if (!ts.isIdentifier(element)) return fail(`${key} holds something other than an entity's name`);
      entityNamed(file, element.text);
      out[key].push(element.text);
    }
  }
  return out;
}

/** `{ anyone: ['./auth/caller'], … }`: the modules that identify a caller of each access level. */
function callerModulesOf(file: string, node: ts.Expression, resolve: (specifier: string) => string | undefined) {
  const object = ts.isAsExpression(node) || ts.isSatisfiesExpression(node) ? node.expression : node;
  const inner = ts.isAsExpression(object) ? object.expression : object;
  if (!ts.isObjectLiteralExpression(inner)) throw new Error(`${file}: callerModules must be an object literal`);
  const out: Partial<Record<Access, string[]>> = {};
  for (const property of inner.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isArrayLiteralExpression(property.initializer)) throw new Error(`${file}: callerModules: each access names a list`);
    const access = (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : '') as Access;
    out[access] = property.initializer.elements.map((element) => {
      const target = ts.isStringLiteral(element) ? resolve(element.text) : undefined;
      if (!target) throw new Error(`${file}: callerModules.${access}: ${element.getText(undefined)} is not a module path`);
      return target;
    });
  }
  return out;
}

function entityNamed(file: string, name: string): KeyedEntity {
  const entity = (entities as Record<string, unknown>)[name] as KeyedEntity | undefined;
  if (!entity || typeof entity !== 'object' || !('leadingKeys' in entity)) {
    throw new Error(`${file}: tableUse names ${name}, which is no entity exported by shared/entities`);
  }
  return entity;
}

function resolveModule(fromDir: string, specifier: string): string | undefined {
  const base = path.resolve(fromDir, specifier.replace(/\.js$/, ''));
  const found = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find((c) => existsSync(c) && statSync(c).isFile() && /\.tsx?$/.test(c));
  return found && path.relative(repoRoot, found);
}

/**
 * The repository's modules a function loads, as the table grants see them: from its handler file,
 * the handler stack's caller modules for its access level in place of the stack's own imports.
 */
export function modulesOf(name: string, access?: Access, handlerFile: string = functionFile(name)): string[] {
  const seen = new Set<string>();
  const pending = [handlerFile];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { imports, callerModules } = moduleFacts(file);
    if (file === HANDLER_STACK) {
      if (!callerModules) throw new Error(`${HANDLER_STACK} must export callerModules: which modules identify a caller of each access level`);
      if (!access) throw new Error(`${name} loads the handler stack but has no access level`);
      pending.push(...(callerModules[access] ?? []));
      pending.push(...imports.filter((target) => !Object.values(callerModules).flat().includes(target)));
    } else {
      pending.push(...imports);
    }
  }
  return [...seen].sort();
}

/** The key patterns of the function `name` (with `access`, a route's): the union of its modules' declarations. */
export function keyPatternsOf(name: string, access?: Access, handlerFile?: string): KeyPatterns {
  const read = new Set<string>();
  const write = new Set<string>();
  const indexes = new Set<string>();
  for (const file of modulesOf(name, access, handlerFile)) {
    const { use } = moduleFacts(file);
    if (!use) continue;
    for (const entityName of [...use.reads, ...use.writes]) {
      const entity = entityNamed(file, entityName);
      read.add(entity.leadingKeys.table);
      Object.values(entity.leadingKeys.indexes).forEach((pattern) => indexes.add(pattern));
    }
    for (const entityName of use.writes) write.add(entityNamed(file, entityName).leadingKeys.table);
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return { read: sorted(read), write: sorted(write), indexes: sorted(indexes) };
}

const likeRegexes = new Map<string, RegExp>();

/** IAM's StringLike: `*` any run of characters, `?` any one, the rest itself. */
export function likeMatches(pattern: string, value: string): boolean {
  let regex = likeRegexes.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]')}$`);
    likeRegexes.set(pattern, regex);
  }
  return regex.test(value);
}
