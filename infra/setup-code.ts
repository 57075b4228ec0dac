import { Aws, CfnOutput, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Effect, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { secretIdVariables } from '../shared/secrets';

/**
 * The one-time owner setup code (functions/owner/setup-admin.ts): without it, whoever reached /admin/setup
 * first after a deploy would own the marketplace. Secrets Manager generates it when the stack is
 * created, `{ "code": "<24 letters and digits>" }`; the operator reads it with the command of the
 * stack output SetupCodeCommand and types it on the setup page. Only setup-admin is told its id
 * (SETUP_SECRET_ID) and may read it.
 */
export class SetupCode extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: `Marketplace (${props.stage}): the one-time code that creates the owner account at /admin/setup`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify({}),
        generateStringKey: 'code',
        passwordLength: 24,
        excludePunctuation: true,
        // A person may copy it by hand: no characters that read alike.
        excludeCharacters: 'Il1O0o',
      },
      // Once the owner exists the code opens nothing; a new stack makes a new one.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new CfnOutput(scope, 'SetupCodeSecretArn', {
      description: 'The secret holding the one-time owner setup code ({"code": ...})',
      value: this.secret.secretArn,
    });
    new CfnOutput(scope, 'SetupCodeCommand', {
      description: 'Prints the one-time owner setup code to enter at <SiteUrl>/admin/setup',
      value: Fn.join('', [
        'aws secretsmanager get-secret-value --region ',
        Aws.REGION,
        ' --secret-id ',
        this.secret.secretArn,
        " --query SecretString --output text",
      ]),
    });
  }

  /** What setup-admin is told: the secret's id, not its value. */
  get environment(): Record<string, string> {
    return { [secretIdVariables.setup]: this.secret.secretArn };
  }

  /**
   * Tells the setup function the secret's id and lets it, and only it, read the secret. Its role is
   * shared with functions that need the same table rights (roleFor, infra/parts/functions.ts), so the right is
   * bound to the function itself: `lambda:SourceFunctionArn` is the ARN of the function whose code
   * made the call, so the other functions of that role are refused. The policy lives beside the
   * function (a route's nested stack), which knows its ARN.
   */
  giveTo(fn: LambdaFunction): void {
    for (const [name, value] of Object.entries(this.environment)) fn.addEnvironment(name, value);
    new Policy(Stack.of(fn), 'SetupCodeRead', {
      roles: [fn.role!],
      statements: [
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
          resources: [this.secret.secretArn],
          conditions: { ArnEquals: { 'lambda:SourceFunctionArn': fn.functionArn } },
        }),
      ],
    });
  }
}
