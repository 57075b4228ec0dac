import { Fn, type Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, LogGroupLogDestination, type CfnStage, type HttpRoute, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { enableRouteMetrics } from '../monitoring';
import { defaultThrottle, throttleFor } from '../throttling';
import type { RouteDef } from '../../shared/routes';
import type { Settings } from './settings';

/**
 * The HTTP API behind /api/*, its one auto-deployed stage with the default throttle, and the
 * stage's access log. The routes themselves are added by the route areas (parts/route-areas.ts).
 */
export class HttpEndpoint {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /**
   * One JSON line per request; the route template rather than the path, so that capability ids (a
   * booking's /track id) stay out of the log. requestId is the apiRequestId of the function's lines.
   */
  readonly accessLogs: LogGroup;

  constructor(stack: Stack, { stage, removalPolicy }: Settings) {
    this.api = new HttpApi(stack, 'HttpApi', {
      apiName: `marketplace-${stage}`,
      description: `Home-services marketplace HTTP API (${stage})`,
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(stack, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: defaultThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTimeEpoch',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            responseLength: '$context.responseLength',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
  }

  /** The host name of the API's endpoint, for CloudFront's origin. */
  get domain(): string {
    // apiEndpoint is "https://<id>.execute-api.<region>.amazonaws.com": keep the host part.
    return Fn.select(2, Fn.split('/', this.api.apiEndpoint));
  }

  /**
   * Tighter limits on the routes an attacker would flood (infra/throttling.ts); the rest take the
   * stage's default. A route setting must name a route that exists, so the stage waits for them.
   */
  throttle(routes: readonly { route: RouteDef; httpRoute: HttpRoute }[]): void {
    const stageResource = this.stage.node.defaultChild as CfnStage;
    // CloudFormation's own (PascalCase) keys: RouteSettings is a JSON map the L1 passes through as is.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const { route, httpRoute } of routes) {
      const { throttleClass, limit } = throttleFor(route.name);
      if (throttleClass === 'default') continue;
      routeSettings[`${route.method} ${route.path}`] = { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit };
      stageResource.node.addDependency(httpRoute);
    }
    stageResource.routeSettings = routeSettings;
  }

  /**
   * The API's own per-route metrics, billed as custom metrics, only when asked for (context
   * "detailedMetrics"); otherwise the dashboard's route tables read the access log.
   */
  enableDetailedMetrics(): void {
    enableRouteMetrics(this.stage.node.defaultChild as CfnStage);
  }
}
