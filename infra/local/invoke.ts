import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { recurring, routes, socketRoutes, streamConsumers, timers } from '../../shared/routes';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { atTheEdge, lambdaContext, loadHandler } from './http-api';
import { localFunctionEnv, prepareData, type LocalSecretsEnv, type LocalStripeEnv } from './stack';

/**
 * `npm run invoke -- <function> [event.json]`: one handler, one event, against the local stack.
 * With `npm start` running it uses that stack's dynalite; otherwise it opens the data dir itself.
 * A route takes an API Gateway (payload 2.0) event; a socket route an API Gateway WebSocket event
 * (what it posts reaches the running stack's /ws clients); a timer takes its schedule's JSON input;
 * a stream consumer takes stream records; a recurring job its schedule's input.
 */
const [name, eventFile] = process.argv.slice(2);
const routeNames: string[] = routes.map((r) => r.name);
const timerNames: string[] = timers.map((t) => t.name);
const socketNames: string[] = socketRoutes.map((r) => r.name);
const streamNames: string[] = streamConsumers.map((c) => c.name);
const recurringNames: string[] = recurring.map((r) => r.name);
if (!name || ![...routeNames, ...timerNames, ...socketNames, ...streamNames, ...recurringNames].includes(name)) {
  console.error(
    `Usage: npm run invoke -- <function> [event.json]\nRoutes: ${routeNames.join(', ')}\nTimers: ${timerNames.join(', ')}\nSocket routes: ${socketNames.join(', ')}\nStream consumers: ${streamNames.join(', ')}\nRecurring jobs: ${recurringNames.join(', ')}`,
  );
  process.exit(2);
}
// Timers, stream consumers and recurring jobs take a plain event, not an HTTP one.
const isTimer = timerNames.includes(name) || streamNames.includes(name) || recurringNames.includes(name);

const root = path.resolve(import.meta.dirname, '../..');
const file = eventFile ? path.resolve(eventFile) : path.join(root, 'events', `${name}.json`);
if (!existsSync(file)) {
  console.error(`No event file at ${file}`);
  process.exit(2);
}
const event = JSON.parse(readFileSync(file, 'utf8')) as unknown;
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');

interface Endpoints {
  dynamoEndpoint: string;
  s3Endpoint: string;
  schedulerEndpoint?: string;
  stripe?: Pick<LocalStripeEnv, 'apiUrl'>;
  websocketEndpoint?: string;
  /** The stack's Secrets Manager, which holds the secrets the functions read (Stripe's keys, the VAPID keys). */
  secrets?: LocalSecretsEnv;
}

async function runningStackEndpoints(): Promise<Endpoints | undefined> {
  const stackFile = path.join(dataDir, 'stack.json');
  if (!existsSync(stackFile)) return undefined;
  const { dynamoEndpoint, s3Endpoint, schedulerEndpoint, stripe, websocketEndpoint, secrets } = JSON.parse(readFileSync(stackFile, 'utf8')) as Endpoints;
  // A stack that was killed without cleaning up leaves the file behind; only a live one answers.
  const alive = await fetch(dynamoEndpoint, { method: 'POST', signal: AbortSignal.timeout(1000) }).then(
    () => true,
    () => false,
  );
  // The stack's local Stripe (none: it runs against real Stripe, whose keys its Secrets Manager holds).
  return alive ? { dynamoEndpoint, s3Endpoint, schedulerEndpoint, stripe, websocketEndpoint, secrets } : undefined;
}

const running = await runningStackEndpoints();
const own = running ? undefined : await prepareData(dataDir);
const endpoints: Endpoints = running ?? {
  ...own!,
  websocketEndpoint: own!.websocket.endpoint,
  secrets: { endpoint: own!.secrets.endpoint, ids: own!.secrets.secretIds() },
};
// Timers set by the handler go to the stack's own scheduler, never to AWS; Stripe calls to the stack's
// Stripe; what it publishes reaches the running stack's sockets.
Object.assign(
  process.env,
  localFunctionEnv(
    endpoints.dynamoEndpoint,
    endpoints.s3Endpoint,
    endpoints.schedulerEndpoint,
    endpoints.stripe,
    endpoints.websocketEndpoint,
    endpoints.secrets,
  ),
);
console.error(running ? `Using the running stack's data (${dataDir})` : `Using ${dataDir} directly`);

/**
 * The origin secret CloudFront would add (infra/local/edge-secrets.ts): this command stands where
 * CloudFront stands, so an HTTP event or a socket handshake reaches the handler as through it.
 */
async function originSecret(): Promise<string | undefined> {
  if (own) return own.edge.originSecret();
  const id = endpoints.secrets?.ids.origin;
  if (!endpoints.secrets || !id) return undefined;
  const client = new SecretsManagerClient({ region: 'us-east-1', endpoint: endpoints.secrets.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: id }));
    return (JSON.parse(out.SecretString ?? '{}') as { value?: string }).value;
  } finally {
    client.destroy();
  }
}

try {
  const handler = await loadHandler(name);
  const withHeaders = event as { headers?: Record<string, string | undefined>; requestContext?: { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } };
  if (!isTimer && withHeaders.headers) {
    const viewer = withHeaders.requestContext?.http?.sourceIp ?? withHeaders.requestContext?.identity?.sourceIp ?? '127.0.0.1';
    withHeaders.headers = atTheEdge(withHeaders.headers, viewer, await originSecret());
  }
  if (isTimer) {
    // Timers return nothing: what they did is in their log lines and in the data.
    const run = handler as unknown as (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;
    const result = await run(event, lambdaContext(name));
    console.log(result === undefined ? `${name} finished` : JSON.stringify(result, null, 2));
  } else {
    printHttpResult((await handler(event as APIGatewayProxyEventV2, lambdaContext(name))) as APIGatewayProxyStructuredResultV2);
  }
} finally {
  await own?.close();
}

function printHttpResult(result: APIGatewayProxyStructuredResultV2): void {
  let body: unknown = result.body;
  try {
    body = result.body ? JSON.parse(result.body) : undefined;
  } catch {
    // Not JSON: print it as it came.
  }
  console.log(JSON.stringify({ ...result, body }, null, 2));
}
