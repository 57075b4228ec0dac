import type { Stack } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { OperatorSecret } from '../app-secrets';
import { OriginSecret } from '../origin-secret';
import { SetupCode } from '../setup-code';
import { streamConsumers, type RouteDef, type StreamConsumerDef } from '../../shared/routes';
import type { Settings } from './settings';

/**
 * The secrets, and which function may read which.
 *
 * The operator's (infra/app-secrets.ts): the functions that need one are told its id and read it at
 * run time (functions/common/secrets.ts), so no function's configuration, the template or cdk.out
 * holds a value, and a rotated value is used within minutes without a deploy. Stripe's keys reach
 * only the functions that call Stripe; the VAPID keys only what sends or hands out push (the push
 * routes and the stream consumer that delivers urgent notifications).
 *
 * The edge's (infra/origin-secret.ts, infra/setup-code.ts): CloudFront proves every API request came
 * through it with the origin secret; the functions that answer through it (the HTTP routes, the
 * WebSocket handshake) are told its id and may read it. The owner setup code goes to setup-admin alone.
 */
export class Secrets {
  readonly stripe: OperatorSecret;
  readonly vapid: OperatorSecret;
  /** What a function that sends or hands out push is told. */
  readonly pushEnvironment: Record<string, string>;

  constructor(
    private readonly stack: Stack,
    private readonly settings: Settings,
  ) {
    this.stripe = new OperatorSecret(stack, 'StripeSecret', { name: 'stripe', secretName: settings.stripeSecretName });
    this.vapid = new OperatorSecret(stack, 'VapidSecret', { name: 'vapid', secretName: settings.vapidSecretName });
    this.pushEnvironment = {
      ...this.vapid.environment,
      VAPID_SUBJECT: `mailto:${settings.supportEmail}`,
    };
  }

  /** What a route that calls Stripe is told: the secret's id, and where Stripe sends the browser back. */
  stripeEnvironment(route: RouteDef): Record<string, string> {
    const { publicUrl } = this.settings;
    return route.stripe
      ? {
          ...this.stripe.environment,
          ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
        }
      : {};
  }

  /**
   * Lets each function told a secret's id read that secret, and no other function: roles are
   * shared, so the right names the function.
   */
  grantOperatorSecrets(
    routes: readonly RouteDef[],
    routeFunctions: Readonly<Record<string, NodejsFunction>>,
    streamFunctions: Readonly<Record<string, NodejsFunction>>,
  ): void {
    const routeDefs = new Map(routes.map((route) => [route.name, route]));
    for (const [name, fn] of Object.entries(routeFunctions)) {
      if (routeDefs.get(name)?.stripe) this.stripe.grantRead(fn);
      if (routeDefs.get(name)?.push) this.vapid.grantRead(fn);
    }
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      const fn = streamFunctions[consumer.name];
      if (fn && consumer.push) this.vapid.grantRead(fn);
    }
  }

  /** Makes the origin secret and the setup code, and gives them to the functions that read them. */
  addEdgeSecrets(
    answeringFunctions: readonly NodejsFunction[],
    setupAdmin: NodejsFunction | undefined,
  ): OriginSecret {
    const { stage, originSecretRevision } = this.settings;
    const originSecret = new OriginSecret(this.stack, 'OriginSecret', { stage, revision: originSecretRevision });
    originSecret.giveTo(answeringFunctions);
    const setupCode = new SetupCode(this.stack, 'SetupCode', { stage });
    if (setupAdmin) setupCode.giveTo(setupAdmin);
    return originSecret;
  }
}
