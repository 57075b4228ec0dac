import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deployedRoutes, streamConsumers } from '../shared/routes';
import { secretIdVariables } from '../shared/secrets';
import type { MarketplaceStack } from './marketplace-stack';
import { testSynth } from './testing/synth';

// A synth of the whole app takes most of a minute on a loaded two-core machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: Record<string, Record<string, unknown>> };

const { synth, cleanup } = testSynth();
let stack: MarketplaceStack;
let template: Template;
let resources: Record<string, Resource>;
afterAll(cleanup);
beforeAll(() => {
  ({ stack, template } = synth({ stage: 'prod' }));
  resources = template.toJSON().Resources as Record<string, Resource>;
});

/** Every function of the stack, by name: routes, timers, socket routes, stream consumers, recurring jobs. */
function everyFunction(): Map<string, NodejsFunction> {
  return new Map(
    Object.entries({ ...stack.functions, ...stack.timerFunctions, ...stack.socketFunctions, ...stack.streamFunctions, ...stack.recurringFunctions }),
  );
}

const logicalIdOf = (fn: NodejsFunction) => Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);

function environmentOf(fn: NodejsFunction): Record<string, unknown> {
  return (resources[logicalIdOf(fn)]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
}

const names = (filter: (fn: NodejsFunction, name: string) => boolean) =>
  [...everyFunction()].filter(([name, fn]) => filter(fn, name)).map(([name]) => name).sort();

/** Every IAM statement, with the roles its policy is attached to. */
function statements(): { roles: unknown[]; statement: Statement }[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::Role' || r.Type === 'AWS::IAM::ManagedPolicy')
    .flatMap((r) => {
      const documents = r.Type === 'AWS::IAM::Role' ? ((r.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).map((p) => p.PolicyDocument) : [r.Properties.PolicyDocument];
      return documents.flatMap((doc) => (doc?.Statement ?? []).map((statement: Statement) => ({ roles: (r.Properties.Roles ?? []) as unknown[], statement })));
    });
}

/** The statements that let anyone read this secret (its name-based ARN, or any wildcard over secrets). */
function readersOf(secretName: string) {
  return statements().filter(({ statement }) => {
    const actions = [statement.Action].flat();
    const reads = actions.some((a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:*' || a === '*');
    return statement.Effect === 'Allow' && reads && JSON.stringify(statement.Resource).includes(secretName);
  });
}

/** The function a statement is bound to by its lambda:SourceFunctionArn condition (its logical id). */
function boundFunction(statement: Statement): string | undefined {
  const arn = statement.Condition?.ArnEquals?.['lambda:SourceFunctionArn'] as { 'Fn::GetAtt'?: [string, string] } | undefined;
  return arn?.['Fn::GetAtt']?.[0];
}

describe('secrets reach the functions by id only', () => {
  it('puts no secret value and no dynamic reference to a secret in any function environment', () => {
    // Act
    const leaks = [...everyFunction()].flatMap(([name, fn]) =>
      Object.entries(environmentOf(fn))
        .filter(([key, value]) => /resolve:secretsmanager/.test(JSON.stringify(value)) || /^(STRIPE_SECRET_KEY|STRIPE_WEBHOOK_SECRET|VAPID_PRIVATE_KEY|VAPID_PUBLIC_KEY|SECRETS_REVISION)$/.test(key))
        .map(([key]) => `${name}: ${key}`),
    );

    // Assess
    expect(everyFunction().size).toBeGreaterThan(50);
    expect(leaks).toEqual([]);
    expect(JSON.stringify(template.toJSON())).not.toMatch(/resolve:secretsmanager:marketplace\/prod\/(stripe|vapid)/);
  });

  it("tells only the functions that call Stripe the Stripe secret's id, and only the push senders the VAPID secret's", () => {
    // Act
    const withStripe = names((fn) => secretIdVariables.stripe in environmentOf(fn));
    const withVapid = names((fn) => secretIdVariables.vapid in environmentOf(fn));

    // Assess
    expect(withStripe).toEqual(deployedRoutes.filter((r) => r.stripe).map((r) => r.name).sort());
    expect(withStripe).toContain('handle-stripe-connect-webhook');
    expect(withVapid).toEqual([...deployedRoutes.filter((r) => r.push).map((r) => r.name), ...streamConsumers.filter((c) => 'push' in c && c.push).map((c) => c.name)].sort());
    expect(environmentOf(stack.functions['create-checkout-session']!)[secretIdVariables.stripe]).toBe('marketplace/prod/stripe');
    expect(environmentOf(stack.streamFunctions['follow-table-changes']!)).toMatchObject({ [secretIdVariables.vapid]: 'marketplace/prod/vapid', VAPID_SUBJECT: 'mailto:support@fixly.app' });
  });
});

describe.each([
  ['stripe', 'marketplace/prod/stripe'],
  ['vapid', 'marketplace/prod/vapid'],
] as const)('the %s secret', (name, secretName) => {
  it('may be read by exactly the functions told its id, each alone, and by nothing else', () => {
    // Prepare
    const told = [...everyFunction()].filter(([, fn]) => environmentOf(fn)[secretIdVariables[name]] === secretName);

    // Act
    const readers = readersOf(secretName);
    const bound = readers.map(({ statement }) => boundFunction(statement));

    // Assess: one statement per function, bound to it by lambda:SourceFunctionArn, on its role.
    expect(told.length).toBeGreaterThan(0);
    expect(bound.sort()).toEqual(told.map(([, fn]) => logicalIdOf(fn)).sort());
    for (const [, fn] of told) {
      const reader = readers.find(({ statement }) => boundFunction(statement) === logicalIdOf(fn))!;
      const role = (resources[logicalIdOf(fn)]!.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      expect(reader.roles).toEqual([{ Ref: role }]);
    }
  });

  it('is granted on its own ARN only (every version of the name, nothing else), to read and nothing more', () => {
    // Act
    const readers = readersOf(secretName);

    // Assess
    for (const { statement } of readers) {
      expect(statement.Action).toBe('secretsmanager:GetSecretValue');
      expect(JSON.stringify(statement.Resource)).toMatch(new RegExp(`:secret:${secretName.replace('/', '\\/')}-\\?\\?\\?\\?\\?\\?"`));
    }
    const wildcard = statements().filter(({ statement }) =>
      [statement.Action].flat().some((a) => a.startsWith('secretsmanager:') || a === '*') && JSON.stringify(statement.Resource) === '"*"',
    );
    expect(wildcard).toEqual([]);
  });
});

describe('secret names from context', () => {
  it('points the ids and the grants at the secrets the operator named', () => {
    // Act
    const { stack: named, template: namedTemplate } = synth({ stage: 'named', stripeSecretName: 'ops/stripe-keys', vapidSecretName: 'ops/push-keys' });
    const namedResources = namedTemplate.toJSON().Resources as Record<string, Resource>;
    const env = (fn: NodejsFunction) => namedResources[logicalIdOf(fn)]!.Properties.Environment.Variables as Record<string, unknown>;
    const policies = JSON.stringify(Object.values(namedResources).filter((r) => r.Type === 'AWS::IAM::Policy'));

    // Assess
    expect(env(named.functions['handle-stripe-webhook']!)[secretIdVariables.stripe]).toBe('ops/stripe-keys');
    expect(env(named.functions['get-vapid-public-key']!)[secretIdVariables.vapid]).toBe('ops/push-keys');
    expect(policies).toContain(':secret:ops/stripe-keys-??????');
    expect(policies).toContain(':secret:ops/push-keys-??????');
  });
});
