import { NestedStack, type Stack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { routesByArea, type RouteArea } from '../route-areas';
import type { RouteDef } from '../../shared/routes';
import type { Functions } from './functions';
import { Geocoding } from './geocoding';
import type { HttpEndpoint } from './http-api';
import type { Realtime } from './realtime';
import type { Secrets } from './secrets';
import type { Timers } from './timers';
import { pascal, type Settings } from './settings';

/**
 * One function and one HTTP route per manifest entry. Each area's routes live in a nested stack of
 * their own (infra/route-areas.ts): at four resources a route, one template would pass
 * CloudFormation's 500 at about 110 routes. The local runtime's own routes (dev-login) are never
 * deployed, whatever the stage.
 */
export class Routes {
  /** The route functions, by route name. */
  readonly functions: Record<string, NodejsFunction> = {};
  /** The nested stack of each route area, which holds its routes' functions. */
  readonly stacks = new Map<RouteArea, NestedStack>();
  /** Each route with its API route, for the stage's per-route throttles. */
  readonly httpRoutes: { route: RouteDef; httpRoute: HttpRoute }[] = [];
  private readonly geocoding: Geocoding;

  constructor(
    stack: Stack,
    private readonly settings: Settings,
    private readonly parts: { functions: Functions; http: HttpEndpoint; timers: Timers; realtime: Realtime; secrets: Secrets },
  ) {
    this.geocoding = new Geocoding(settings);
    for (const [area, areaRoutes] of routesByArea(settings.routes)) {
      const areaStack = new NestedStack(stack, `${pascal(area)}Routes`, { description: `Marketplace ${area} routes (${settings.stage})` });
      this.stacks.set(area, areaStack);
      for (const route of areaRoutes) this.add(areaStack, route);
    }
  }

  private add(areaStack: NestedStack, route: RouteDef): void {
    const { functions, http, timers, realtime, secrets } = this.parts;
    const { stage } = this.settings;
    const id = pascal(route.name);
    const fn = functions.create(id, route.name, {
      scope: areaStack,
      description: `${route.method} ${route.path} (${stage})`,
      // Lambda's CPU grows with memory: a password hash needs most of a vCPU (shared/routes.ts).
      memorySize: route.memoryMb,
      environment: {
        ...functions.environment,
        ...(route.scheduler ? timers.schedulingEnvironment : {}),
        ...this.geocoding.environment(route.name),
        ...secrets.stripeEnvironment(route),
        ...(route.realtime ? realtime.environment : {}),
        ...(route.push ? secrets.pushEnvironment : {}),
      },
      role: functions.roleFor({
        table: route,
        uploads: route.uploads,
        documents: route.documents,
        scheduler: route.scheduler,
        realtime: route.realtime,
        ...this.geocoding.roleNeeds(route.name),
      }),
    });
    if (fn.role) this.geocoding.grantTo(fn.role, route.name);
    const httpRoute = new HttpRoute(areaStack, `${id}Route`, {
      httpApi: http.api,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: new HttpLambdaIntegration(`${id}Integration`, fn, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      }),
    });
    this.functions[route.name] = fn;
    this.httpRoutes.push({ route, httpRoute });
  }
}
