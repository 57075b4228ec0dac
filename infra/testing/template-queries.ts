import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { expect } from 'vitest';
import { deployedRoutes, timers, type RouteDef } from '../../shared/routes';
import type { MarketplaceStack } from '../marketplace-stack';

/**
 * Reading the synthesized MarketplaceStack (infra/testing/synth.ts) in the stack's tests
 * (infra/parts/*.test.ts): its resources, a function's grants and environment, by manifest name.
 */

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; DependsOn?: string[] };

export function resourcesOf(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** The routes every stage deploys (dev-login exists only in the local runtime). */
export const routes = deployedRoutes;

export type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: Record<string, unknown> };

/** Every statement of every IAM policy attached to a role (by its logical id). */
export function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleLogicalId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** Every statement of every IAM policy attached to a function's role. */
export function statementsOf(stack: MarketplaceStack, template: Template, fn: NodejsFunction): Statement[] {
  const fnResource = template.toJSON().Resources[logicalIdOf(stack, fn)] as Resource;
  return statementsOfRole(template, fnResource.Properties.Role['Fn::GetAtt'][0] as string);
}

/** A function's logical id in its own template (the stack's, or its route area's nested stack). */
export const logicalIdOf = (_stack: MarketplaceStack, fn: NodejsFunction) => Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
export const actionsOf = (statements: Statement[], service: string) =>
  statements.flatMap((s) => [s.Action].flat().filter((a) => a.startsWith(`${service}:`)));

/** The actions (of one service) granted by every IAM policy attached to a route function's role. */
export function dynamoActionsOf(stack: MarketplaceStack, template: Template, name: string, service = 'dynamodb'): string[] {
  const fn = stack.functions[name];
  if (!fn) throw new Error(`no function for route ${name}`);
  return actionsOf(statementsOf(stack, template, fn), service);
}

export function environmentOf(stack: MarketplaceStack, template: Template, fn: NodejsFunction): Record<string, unknown> {
  const resource = template.toJSON().Resources[logicalIdOf(stack, fn)] as Resource;
  return resource.Properties.Environment.Variables as Record<string, unknown>;
}

/** Route and timer functions, with whether the manifest says they schedule timers. */
export function everyFunction(stack: MarketplaceStack): { name: string; fn: NodejsFunction; scheduler: boolean }[] {
  return [
    ...routes.map((r) => ({ name: r.name, fn: stack.functions[r.name]!, scheduler: Boolean(r.scheduler) })),
    ...timers.map((t) => ({ name: t.name, fn: stack.timerFunctions[t.name]!, scheduler: Boolean(t.scheduler) })),
  ];
}

export const schedulingVariables = ['SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN', 'TIMER_TARGET_PREFIX'];

/** A Scheduler role's statements: the others, and the right to send to the dead-letter queue. */
export function splitDeadLetterStatements(statements: Statement[]): [Statement[], Statement[]] {
  const isSqs = (s: Statement) => [s.Action].flat().some((a) => a.startsWith('sqs:'));
  return [statements.filter((s) => !isSqs(s)), statements.filter(isSqs)];
}
export const deadLetterStatement = (stack: MarketplaceStack) => ({
  Action: expect.arrayContaining(['sqs:SendMessage']),
  Effect: 'Allow',
  Resource: { 'Fn::GetAtt': [stack.getLogicalId(stack.deadLetterQueue.node.defaultChild as CfnQueue), 'Arn'] },
});

export function firstRoute(grant: RouteDef['table']): RouteDef {
  const route = routes.find((r) => r.table === grant);
  if (!route) throw new Error(`the manifest has no route with table grant "${grant}"`);
  return route;
}
