import { ArnFormat, Aws, type Stack } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { socketRoutes, type SocketRouteDef } from '../../shared/routes';
import { webSocketThrottle } from '../throttling';
import type { Functions } from './functions';
import { pascal, type Settings } from './settings';

/**
 * /ws: the WebSocket API of the realtime rooms, its stage, one function per socket route, and the
 * right of other functions to publish to its connections (functions/realtime/realtime.ts).
 */
export class Realtime {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  /** Named after the deployment stage: it is the path of both the sockets and @connections. */
  readonly stageName: string;
  /** The API's own host name, for CloudFront's origin and the management endpoint. */
  readonly domain: string;
  /**
   * What a publishing function is told: the management endpoint. Built from the API id and a
   * literal stage name, not from the stage construct, so that no function waits on a deployment.
   */
  readonly environment: Record<string, string>;
  /** The socket functions, by socket route name. */
  readonly functions: Record<string, NodejsFunction> = {};

  constructor(
    private readonly stack: Stack,
    private readonly settings: Settings,
  ) {
    const { stage } = settings;
    this.api = new WebSocketApi(stack, 'WebSocketApi', {
      apiName: `marketplace-ws-${stage}`,
      description: `Home-services marketplace realtime rooms, /ws (${stage})`,
    });
    this.stageName = stage;
    this.stage = new WebSocketStage(stack, 'WebSocketStage', {
      webSocketApi: this.api,
      stageName: this.stageName,
      autoDeploy: true,
      // Every message is a Lambda invocation: sized for the sharing pros of 100 times today's
      // bookings (the model and its arithmetic are in infra/throttling.ts); each connection is held
      // to its own per-second limit by handle-socket-message.
      throttle: { ...webSocketThrottle },
    });
    this.domain = `${this.api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    this.environment = { WEBSOCKET_ENDPOINT: `https://${this.domain}/${this.stageName}` };
  }

  /** The right to post to, read and close this API's connections on this stage, nothing more. */
  grantPublish(role: IRole): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['execute-api:ManageConnections'],
        resources: ['POST', 'GET', 'DELETE'].map((method) =>
          this.stack.formatArn({
            service: 'execute-api',
            resource: this.api.apiId,
            resourceName: `${this.stageName}/${method}/@connections/*`,
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
        ),
      }),
    );
  }

  /** The socket functions answer on their own connection (joined, pong, errors) and relay to rooms. */
  addSocketRoutes(functions: Functions): void {
    for (const socketRoute of socketRoutes as readonly SocketRouteDef[]) {
      const id = pascal(socketRoute.name);
      const fn = functions.create(id, socketRoute.name, {
        description: `WebSocket ${socketRoute.routeKey} of /ws (${this.settings.stage})`,
        environment: { ...functions.environment, ...this.environment },
        role: functions.roleFor({ table: socketRoute, realtime: true }),
      });
      this.api.addRoute(socketRoute.routeKey, { integration: new WebSocketLambdaIntegration(`${id}Integration`, fn) });
      this.functions[socketRoute.name] = fn;
    }
  }
}
