import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { keys, type KeyedEntity } from '../../shared/entities';
import { deployedRoutes, type Access, type RouteDef } from '../../shared/routes';
import { fileSynths } from '../testing/synth';
import { logicalIdOf, resourcesOf, type Resource, type Statement } from '../testing/template-queries';
import type { MarketplaceStack } from '../marketplace-stack';
import { keyPatternsOf, likeMatches, moduleFacts, modulesOf } from '../table-grants';
import * as entities from '../../shared/entities';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const { synth } = fileSynths();
// Made while the tests are collected: the per-role tests below are one per role the synth made.
const prod = synth();

/** The functions' own modules: handlers and what they load, without tests and test helpers. */
function functionModules(): string[] {
  return execFileSync('git', ['ls-files', 'functions/*.ts'], { cwd: repoRoot, encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter((file) => !file.endsWith('.test.ts') && !file.startsWith('functions/testing/'));
}

/** The data primitives take their keys from their callers, whose declarations cover them. */
const isPrimitive = (file: string) => file.startsWith('functions/common/data/');

const actions = (s: Statement) => [s.Action].flat();
/** What reaches the table's items or indexes (the stream consumers' rights on the stream are not). */
const itemActions = /^dynamodb:(GetItem|BatchGetItem|Query|Scan|ConditionCheckItem|PutItem|UpdateItem|DeleteItem|BatchWriteItem|PartiQL\w*|\*)$/;
const onTable = (statements: Statement[]) => statements.filter((s) => actions(s).some((a) => itemActions.test(a)));
const leadingKeys = (s: Statement) => (s.Condition?.['ForAllValues:StringLike'] as { 'dynamodb:LeadingKeys'?: string[] } | undefined)?.['dynamodb:LeadingKeys'];

/** Every function the stack makes, by name, whatever makes it. */
function everyFunction(stack: MarketplaceStack): [string, NodejsFunction][] {
  return [
    ...Object.entries(stack.functions),
    ...Object.entries(stack.timerFunctions),
    ...Object.entries(stack.socketFunctions),
    ...Object.entries(stack.streamFunctions),
    ...Object.entries(stack.recurringFunctions),
    ...(stack.mailFeedbackFunction ? [['record-mail-feedback', stack.mailFeedbackFunction] as [string, NodejsFunction]] : []),
  ];
}

/** The logical id of a function's role (every function role is in the main stack). */
function roleOf(template: Template, fn: NodejsFunction): string {
  const resource = template.toJSON().Resources[logicalIdOf(prod.stack, fn)] as Resource;
  return resource.Properties.Role['Fn::GetAtt'][0] as string;
}

function roleStatements(template: Template, roleId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

describe('table grants: every module that sends commands to the table declares what it touches', () => {
  it('finds a tableUse declaration in every module that imports dynamo or a data primitive', () => {
    // Prepare
    const modules = functionModules().filter((file) => !isPrimitive(file));

    // Act
    const touching = modules.filter((file) => moduleFacts(file).touchesTable);
    const undeclared = touching.filter((file) => !moduleFacts(file).use);

    // Assess
    expect(touching.length).toBeGreaterThan(30);
    expect(undeclared).toEqual([]);
  });

  it('reads from each module the same entities its tableUse export holds at run time', async () => {
    // Prepare
    const declared = functionModules().filter((file) => moduleFacts(file).use);
    const nameOf = new Map<unknown, string>(Object.entries(entities).map(([name, value]) => [value, name]));

    // Act
    const mismatched: string[] = [];
    for (const file of declared) {
      const module = (await import(pathToFileURL(path.join(repoRoot, file)).href)) as { tableUse: { reads: KeyedEntity[]; writes: KeyedEntity[] } };
      const atRunTime = { reads: module.tableUse.reads.map((e) => nameOf.get(e)), writes: module.tableUse.writes.map((e) => nameOf.get(e)) };
      if (JSON.stringify(atRunTime) !== JSON.stringify(moduleFacts(file).use)) mismatched.push(file);
    }

    // Assess
    expect(declared.length).toBeGreaterThan(30);
    expect(mismatched).toEqual([]);
  });

  it('matches keys as IAM StringLike does: * any run of characters, ? exactly one, the rest as written', () => {
    // Act / Assess
    expect(likeMatches('JOB#*', 'JOB#j_1')).toBe(true);
    expect(likeMatches('JOB#*', 'JOBS')).toBe(false);
    expect(likeMatches('JOBS*', 'JOBS#3')).toBe(true);
    expect(likeMatches('OWNER', 'OWNER')).toBe(true);
    expect(likeMatches('OWNER', 'OWNERS')).toBe(false);
    expect(likeMatches('A?C', 'ABC')).toBe(true);
    expect(likeMatches('A?C', 'AC')).toBe(false);
    expect(likeMatches('A.C', 'ABC')).toBe(false);
  });

  it('gives a public route none of what identifying a signed-in caller reads, and an anyone route the sessions', () => {
    // Act
    const geocode = keyPatternsOf('search-addresses', 'public');
    const currentUser = keyPatternsOf('get-current-user', 'anyone');

    // Assess
    expect(geocode).toEqual({ read: ['GEOCODE#*'], write: ['GEOCODE#*'], indexes: [] });
    expect(currentUser.read).toContain(keys.session('x').pk.replace('x', '*'));
  });
});

/**
 * The routes anyone may call without signing in, and those that take the customer cookie alone:
 * they must reach no session and no password hash. A sign-in route reaches them by what it is: it
 * checks a password and starts or ends a session.
 */
const signIn: Record<string, string> = {
  'setup-admin': 'sets the owner password and starts their session',
  'login-admin': "checks the owner's password and starts a session",
  'logout-admin': "ends the owner's session",
  'end-session': 'ends the session its cookie names',
  'login-worker': "checks a worker's password and starts a session",
  'reset-password': 'sets a new password and ends the sessions before it',
  'request-password-reset': 'finds the account a reset is for',
  'create-worker-account': 'sets the password of a new worker account and starts its session',
  'check-worker-account-link': 'finds the account the mailed link is for',
  'request-worker-account-link': 'finds the account the link is for',
};

/**
 * The password hashes share their partitions with what many functions must read: the owner's is on
 * the owner item (OWNER), beside the email the owner's mail goes to; a worker's is under the
 * worker's partition (WORKER#<id>, sort key ACCOUNT), beside their profile, offers and penalties.
 * dynamodb:LeadingKeys sees partition keys alone, so a function that reads the owner's email or a
 * worker's profile can reach those partitions; nothing else may (infra/README.md: Table grants).
 */
const sharesOwnerPartition = ['ownerEntity'];
const sharesWorkerPartition = ['workerEntity', 'workerAccountEntity', 'workerOfferEntity', 'workerPenaltyEntity', 'workerProbationEntity'];
const readsAnyOf = (name: string, access: Access, entityNames: string[]) =>
  modulesOf(name, access).some((file) => {
    const use = moduleFacts(file).use;
    return use !== undefined && [...use.reads, ...use.writes].some((entity) => entityNames.includes(entity));
  });

describe('table grants: the synthesized roles', () => {
  it('limits every table statement of every function role to the partition keys its code touches, never Scan', () => {
    // Prepare
    const { stack, template } = prod;
    const functions = everyFunction(stack);

    // Act
    const unconditioned: string[] = [];
    const scans: string[] = [];
    for (const [name, fn] of functions) {
      for (const statement of onTable(roleStatements(template, roleOf(template, fn)))) {
        if (!leadingKeys(statement)?.length || (statement.Condition?.Null as Record<string, string> | undefined)?.['dynamodb:LeadingKeys'] !== 'false') unconditioned.push(name);
        if (actions(statement).includes('dynamodb:Scan')) scans.push(name);
      }
    }

    // Assess
    expect(functions.length).toBeGreaterThan(90);
    expect(unconditioned).toEqual([]);
    expect(scans).toEqual([]);
  });

  it('grants each function exactly the patterns the generator finds in its code, the index ones on the indexes alone', () => {
    // Prepare
    const { stack, template } = prod;
    const accessOf = new Map<string, Access>(deployedRoutes.map((r) => [r.name, r.access]));

    // Act / Assess
    for (const [name, fn] of everyFunction(stack)) {
      const patterns = keyPatternsOf(name, accessOf.get(name));
      const statements = onTable(roleStatements(template, roleOf(template, fn)));
      const onIndexes = statements.filter((s) => JSON.stringify(s.Resource).includes('/index/*'));
      const onItems = statements.filter((s) => !onIndexes.includes(s));
      for (const s of onIndexes) {
        expect(actions(s), name).toEqual(['dynamodb:Query']);
        expect(leadingKeys(s), name).toEqual(patterns.indexes);
      }
      for (const s of onItems) expect(patterns.read, name).toEqual(expect.arrayContaining(leadingKeys(s)!));
    }
  });

  describe('per role of the public and customer-cookie routes: no session, no password hash', () => {
    // Grouped by the role the stack gave them: roles with equal grants are shared.
    const routesOf = new Map<string, RouteDef[]>();
    for (const route of deployedRoutes.filter((r) => r.access === 'public' || r.access === 'customer')) {
      const roleId = roleOf(prod.template, prod.stack.functions[route.name]!);
      routesOf.set(roleId, [...(routesOf.get(roleId) ?? []), route]);
    }

    for (const [roleId, roleRoutes] of routesOf) {
      const names = roleRoutes.map((r) => r.name);
      it(`${roleId} (${names.join(', ')})`, () => {
        // Prepare
        const statements = onTable(roleStatements(prod.template, roleId));
        const onIndexes = statements.filter((s) => JSON.stringify(s.Resource).includes('/index/*')).flatMap((s) => leadingKeys(s)!);
        const onItems = statements.filter((s) => !JSON.stringify(s.Resource).includes('/index/*')).flatMap((s) => leadingKeys(s)!);

        // Act
        const sessions = onItems.filter((p) => likeMatches(p, keys.session('h').pk));
        const sessionLists = onIndexes.filter((p) => likeMatches(p, keys.sessionsOf('worker', 'w_1').gsi1pk));
        const ownerHash = onItems.filter((p) => likeMatches(p, keys.owner().pk));
        const workerHash = onItems.filter((p) => likeMatches(p, keys.workerAccount('w_1').pk));

        // Assess
        // Sessions: none, but where every function of the role is a sign-in route.
        const signingIn = names.every((name) => signIn[name]);
        if (!signingIn) {
          expect(sessions).toEqual([]);
          expect(sessionLists).toEqual([]);
        }
        // The password hashes' partitions: only for a function whose code reads what shares them.
        if (ownerHash.length) expect(roleRoutes.filter((r) => !readsAnyOf(r.name, r.access, sharesOwnerPartition)).map((r) => r.name)).toEqual([]);
        if (workerHash.length) expect(roleRoutes.filter((r) => !readsAnyOf(r.name, r.access, sharesWorkerPartition)).map((r) => r.name)).toEqual([]);
      });
    }
  });

  it('stays inside IAM and CloudFormation limits: each inline policy under 10,240 characters, each template under 450 resources', () => {
    // Prepare
    const { stack, stackTemplate } = prod;
    const policies = Object.values(resourcesOf(stackTemplate, 'AWS::IAM::Policy'));
    const managed = Object.values(resourcesOf(stackTemplate, 'AWS::IAM::ManagedPolicy'));

    // Act
    const inlineSizes = policies.map((p) => JSON.stringify(p.Properties.PolicyDocument).replace(/\s/g, '').length);
    const managedSizes = managed.map((p) => JSON.stringify(p.Properties.PolicyDocument).replace(/\s/g, '').length);
    const counts = [stackTemplate, ...[...stack.routeStacks.values()].map((nested) => Template.fromStack(nested))].map(
      (template) => Object.keys(template.toJSON().Resources).length,
    );

    // Assess
    expect(Math.max(...inlineSizes)).toBeLessThan(10_240);
    expect(Math.max(0, ...managedSizes)).toBeLessThan(6_144);
    expect(Math.max(...counts)).toBeLessThan(450);
  });
});
