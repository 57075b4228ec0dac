import { ArnFormat, Stack } from 'aws-cdk-lib';
import { Effect, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { secretIdVariables, type SecretName } from '../shared/secrets';

/**
 * A secret the operator creates before deploying (the Stripe keys, the VAPID keys), known to the
 * stack by name only. The functions that need it are told its id (e.g. STRIPE_SECRET_ID) and read
 * it at run time (functions/common/secrets.ts): neither the template nor any function's configuration
 * holds its value or a dynamic reference to it, and a new value is used within minutes of being put
 * in the secret, without a deploy.
 */
export class OperatorSecret extends Construct {
  /** Every version of the secret: a name-based ARN ends in `-` and six characters Secrets Manager adds. */
  readonly arnPattern: string;

  constructor(
    scope: Construct,
    id: string,
    readonly props: { name: SecretName; secretName: string },
  ) {
    super(scope, id);
    this.arnPattern = Stack.of(this).formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${props.secretName}-??????`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  /** What a function that needs the secret is told: its id (name), never its value. */
  get environment(): Record<string, string> {
    return { [secretIdVariables[this.props.name]]: this.props.secretName };
  }

  /**
   * Lets `fn`, and only it, read the secret. Its role is shared with functions that need the same
   * table rights (roleFor, infra/parts/functions.ts), so the right is bound to the function itself:
   * `lambda:SourceFunctionArn` is the ARN of the function whose code made the call, so the role's
   * other functions are refused. The policy lives beside the function (a route's nested stack),
   * which knows its ARN.
   */
  grantRead(fn: LambdaFunction): void {
    new Policy(Stack.of(fn), `${this.node.id}Read${fn.node.id}`, {
      roles: [fn.role!],
      statements: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['secretsmanager:GetSecretValue'],
          resources: [this.arnPattern],
          conditions: { ArnEquals: { 'lambda:SourceFunctionArn': fn.functionArn } },
        }),
      ],
    });
  }
}
