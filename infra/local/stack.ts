import { createServer, type Server } from 'node:http';
import type { CapacityMeter } from './dynamo-meter';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import { staticSite } from './static-site';
import { streamConsumers } from '../../shared/routes';
import { ensureTable, localDynamoClient, seedCatalog, startDynalite } from './dynamo';
import { localStream, type StreamConsumer } from './dynamo-stream';
import { leftoverRecords } from './leftover-records';
import { httpApi, lambdaContext, loadHandler } from './http-api';
import { ensureBucket, localS3Client, startLocalS3 } from './s3';
import { startLocalScheduler, type FiredTarget } from './scheduler';
import { startRecurringJobs } from './recurring';
import { recurring } from '../../shared/routes';
import { LOCAL_SECRET_KEY_PREFIX, startLocalStripe, type DeliverWebhook, type WebhookEndpoint } from './stripe';
import { localSecretsEnv, seedLocalSecret, startLocalSecretsManager, type LocalSecretsManager } from './secrets-manager';
import { loadOrCreateVapidKeys } from './vapid';
import { startLocalSes, type LocalSes } from './ses';
import type { SecretName } from '../../shared/secrets';
import { writePrivateFile } from './private-file';
import { startLocalWebSocketApi, type LocalWebSocketApi } from './websocket';
import { ownerExists, seedEdgeSecrets, type LocalEdgeSecrets } from './edge-secrets';
import { functionAreas, functionFile } from '../../shared/function-files';

/** How long a stopping stack waits for the stream's deliveries in flight. */
const STREAM_DRAIN_MS = 5_000;

// The laptop runs Node 20 while Lambda runs 22; the SDK's reminder of that is noise here. Set before
// any client exists, including the ones this module creates to prepare the table.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const LOCAL_TABLE = 'marketplace-local';
export const LOCAL_UPLOADS_BUCKET = 'marketplace-local-uploads';
/** What every local client signs with; the local S3 checks signatures against it. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** Timer targets are `<prefix><function name>`; the local Scheduler invokes functions/<area>/<name>.ts. */
export const LOCAL_TIMER_TARGET_PREFIX = 'arn:aws:lambda:us-east-1:000000000000:function:';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface LocalStackOptions {
  port: number;
  dataDir: string;
  /**
   * The web app on the same port: through Vite's dev server (true, the default), from a production
   * build (`{ dist }`, served as CloudFront serves it, under the strict CSP), or not at all (false,
   * for API-only use such as tests of handlers).
   */
  web?: boolean | { dist: string };
  host?: string;
  /** Measures the table's work as DynamoDB bills it (dynamo-meter.ts): the bench's capacity model. */
  meter?: CapacityMeter;
}

export interface LocalStack {
  url: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** The local Stripe (API and hosted pages); absent when a real STRIPE_SECRET_KEY was given. */
  stripeEndpoint?: string;
  /** The WebSocket API's @connections management endpoint (the sockets themselves are `<url>/ws`). */
  websocketEndpoint: string;
  /** The local Secrets Manager the functions read their secrets from. */
  secretsEndpoint: string;
  /** The local SES the functions send mail through; its messages are listed at `<url>/_local/inbox`. */
  sesEndpoint: string;
  /** While no owner exists: where the owner is set up, and the setup code it asks for (start.ts prints both). */
  ownerSetup?: { url: string; code: string };
  stop(): Promise<void>;
  /** Where a stop is (so a stop that takes too long can say what it waits on). */
  stopPhase(): string;
}

/**
 * How the functions reach Stripe: the local endpoint and its keys, or the developer's real test keys.
 * The keys go into the local Secrets Manager's Stripe secret, never into the functions' environment.
 */
export interface LocalStripeEnv {
  /** The local Stripe (infra/local/stripe.ts); absent for real Stripe. */
  apiUrl?: string;
  secretKey: string;
  /** Absent only when a developer set a real STRIPE_SECRET_KEY without its webhook secret. */
  webhookSecret?: string;
  /** The Connect endpoint's signing secret; absent only for real keys given without it. */
  connectWebhookSecret?: string;
}

/** What the mail sender is told locally: the local SES, and the site's address its links point to. */
export interface LocalMailEnv {
  sesEndpoint: string;
  siteUrl?: string;
}

/** What the functions are told of the local Secrets Manager: where it is and the ids of the secrets it holds. */
export interface LocalSecretsEnv {
  endpoint: string;
  ids: Partial<Record<SecretName, string>>;
}

/** The local services behind the handlers: dynalite, the local S3, the local Scheduler and Stripe. */
export interface LocalData {
  dynamoEndpoint: string;
  s3Endpoint: string;
  schedulerEndpoint: string;
  stripe: LocalStripeEnv;
  /** The local WebSocket API: its management endpoint runs from here; /ws needs an HTTP server to attach to. */
  websocket: LocalWebSocketApi;
  /**
   * The local Secrets Manager, seeded with the Stripe and VAPID secrets. More secrets are put with
   * seedLocalSecret / ensureLocalSecret (infra/local/secrets-manager.ts); call refreshSecretIds()
   * after, so the functions are told their ids.
   */
  secrets: LocalSecretsManager;
  /** Puts every secret id the local Secrets Manager holds now into the functions' environment. */
  refreshSecretIds(): void;
  /** The origin secret the local fronts add as CloudFront does, and the owner setup code (infra/local/edge-secrets.ts). */
  edge: LocalEdgeSecrets;
  /** The local SES: every message the functions send, kept under `<data>/ses`. */
  ses: LocalSes;
  close(): Promise<void>;
}

export interface PrepareDataOptions {
  /**
   * Where the local Stripe sends its webhooks (the stack's own /api/stripe/webhook, and
   * /api/stripe/connect-webhook for connected accounts' events), asked at each delivery because the
   * HTTP server's address is known only once it listens. Undefined (or no option): nothing listens,
   * and a delivery fails (logged).
   */
  stripeWebhookUrl?: (endpoint: WebhookEndpoint) => string | undefined;
  /** The site's address, when known before the server listens (a fixed port): where the links in mail point. */
  siteUrl?: string;
  meter?: CapacityMeter;
}

/**
 * The environment every handler reads, exactly as the CDK stack sets it, with local endpoints.
 * The functions run in this process, so it goes on process.env before any handler is imported.
 */
export function localFunctionEnv(
  dynamoEndpoint: string,
  s3Endpoint: string,
  schedulerEndpoint?: string,
  stripe?: Pick<LocalStripeEnv, 'apiUrl'>,
  websocketEndpoint?: string,
  secrets?: LocalSecretsEnv,
  mail?: LocalMailEnv,
): Record<string, string> {
  return {
    TABLE_NAME: LOCAL_TABLE,
    UPLOADS_BUCKET: LOCAL_UPLOADS_BUCKET,
    STAGE: 'local',
    // Only this runtime sets it (the CDK stack cannot, whatever its stage): it opens dev-login,
    // cookies without Secure over plain http and a loopback push service (functions/common/env.ts).
    LOCAL_RUNTIME: 'true',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    // dynalite on a laptop's two cores is no DynamoDB: under a burst it queues for seconds, and a
    // call it is still working on must not be abandoned and sent again.
    DYNAMODB_TIMEOUT_MS: process.env.DYNAMODB_TIMEOUT_MS ?? '30000',
    // The browser posts uploads and fetches downloads here directly, on its own port (CORS allows
    // any localhost origin), exactly as it reaches the bucket in AWS.
    S3_ENDPOINT: s3Endpoint,
    // Absent only where a caller has no Scheduler to offer; functions/common/scheduler.ts then uses AWS.
    ...(schedulerEndpoint ? { SCHEDULER_ENDPOINT: schedulerEndpoint } : {}),
    TIMER_TARGET_PREFIX: LOCAL_TIMER_TARGET_PREFIX,
    // The local Stripe's endpoint (none for the developer's real test keys: api.stripe.com).
    ...(stripe?.apiUrl ? { STRIPE_API_URL: stripe.apiUrl } : {}),
    // Secrets (Stripe's keys, the VAPID keys, ...) are read from the local Secrets Manager as in the
    // cloud: only its endpoint and the secrets' ids are here. Absent where a caller has none to
    // offer; the functions that need a secret then answer 503 and log which.
    ...(secrets ? localSecretsEnv({ endpoint: secrets.endpoint, secretIds: () => secrets.ids }) : {}),
    // The local @connections endpoint (infra/local/websocket.ts). Absent where a caller has none to
    // offer; functions/realtime/realtime.ts then delivers nothing and the screens' polling carries the news.
    ...(websocketEndpoint ? { WEBSOCKET_ENDPOINT: websocketEndpoint } : {}),
    // The local SES (infra/local/ses.ts), who mail is from, and the site the mails' links open.
    // Absent where a caller has no SES to offer; functions/mail/send-mail.ts then leaves mail pending.
    ...(mail
      ? {
          SES_ENDPOINT: mail.sesEndpoint,
          MAIL_FROM: process.env.MAIL_FROM ?? 'Fixly <no-reply@fixly.test>',
          SES_CONFIGURATION_SET: 'marketplace-local',
          ...(mail.siteUrl ? { SITE_URL: mail.siteUrl } : {}),
        }
      : {}),
    // Web push's contact, as the CDK stack sets it (the keys are in the VAPID secret).
    VAPID_SUBJECT: `mailto:${process.env.SUPPORT_EMAIL ?? 'support@fixly.app'}`,
    PLATFORM_FEE_PERCENT: process.env.PLATFORM_FEE_PERCENT ?? '10',
    SUPPORT_EMAIL: process.env.SUPPORT_EMAIL ?? 'support@fixly.app',
    ...(process.env.CREATION_LIMIT_SCALE ? { CREATION_LIMIT_SCALE: process.env.CREATION_LIMIT_SCALE } : {}),
  };
}

/**
 * The real Stripe test keys a developer put in the environment, if any. A key of a local Stripe
 * (`sk_test_local_…`, e.g. inherited from a parent process that runs one) is not one: real Stripe
 * would refuse it, so the caller runs its own local Stripe instead.
 */
export function suppliedStripeEnv(): LocalStripeEnv | undefined {
  const secretKey = process.env.STRIPE_SECRET_KEY;
  if (!secretKey || secretKey.startsWith(LOCAL_SECRET_KEY_PREFIX)) return undefined;
  return {
    secretKey,
    ...(process.env.STRIPE_WEBHOOK_SECRET ? { webhookSecret: process.env.STRIPE_WEBHOOK_SECRET } : {}),
    ...(process.env.STRIPE_CONNECT_WEBHOOK_SECRET ? { connectWebhookSecret: process.env.STRIPE_CONNECT_WEBHOOK_SECRET } : {}),
  };
}

/** Sends a local Stripe event to the stack's webhook function for its endpoint over HTTP, as Stripe does. */
function webhookDeliverer(webhookUrl: (endpoint: WebhookEndpoint) => string | undefined): DeliverWebhook {
  return async (payload, signature, endpoint) => {
    const url = webhookUrl(endpoint);
    if (!url) throw new Error('no webhook receiver: the stack serves no HTTP here');
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  };
}

export async function prepareData(dataDir: string, options: PrepareDataOptions = {}): Promise<LocalData> {
  const supplied = suppliedStripeEnv();
  if (supplied && !supplied.webhookSecret) {
    console.warn('STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: the webhook will refuse every event (e.g. set it from `stripe listen`).');
  }
  if (supplied && !supplied.connectWebhookSecret) {
    console.warn('STRIPE_SECRET_KEY is set but STRIPE_CONNECT_WEBHOOK_SECRET is not: the Connect webhook will refuse every event (e.g. set it from `stripe listen --forward-connect-to`).');
  }
  const stream = localStream(streamConsumers.map(streamConsumer));
  const dynamo = await startDynalite(path.join(dataDir, 'dynamodb'), stream, options.meter);
  if (dynamo.recovered) console.warn(`Put back ${dynamo.recovered} transaction(s) the last run was stopped in the middle of.`);
  const s3 = await startLocalS3(path.join(dataDir, 's3'), LOCAL_CREDENTIALS).catch(async (error: unknown) => {
    await dynamo.close();
    throw error;
  });
  // Without real keys from the developer, the functions' Stripe is this local one.
  const localStripe = supplied
    ? undefined
    : await startLocalStripe(path.join(dataDir, 'stripe'), {
        deliver: webhookDeliverer(options.stripeWebhookUrl ?? (() => undefined)),
      }).catch(async (error: unknown) => {
        await Promise.all([dynamo.close(), s3.close()]);
        throw error;
      });
  const stripe: LocalStripeEnv = supplied ?? {
    apiUrl: localStripe!.endpoint,
    secretKey: localStripe!.secretKey,
    webhookSecret: localStripe!.webhookSecret,
    connectWebhookSecret: localStripe!.connectWebhookSecret,
  };
  // The functions read Stripe's keys and the VAPID keys from here, as from Secrets Manager in the
  // cloud; seeded at every start from where each is kept (the local Stripe's and .data/push's key
  // files). A developer's real Stripe keys are kept in memory only, never written to disk.
  const secrets = await startLocalSecretsManager(path.join(dataDir, 'secrets')).catch(async (error: unknown) => {
    await Promise.all([dynamo.close(), s3.close(), localStripe?.close()]);
    throw error;
  });
  const vapidKeys = loadOrCreateVapidKeys(path.join(dataDir, 'push'));
  seedLocalSecret(
    secrets,
    'stripe',
    {
      secretKey: stripe.secretKey,
      ...(stripe.webhookSecret ? { webhookSecret: stripe.webhookSecret } : {}),
      ...(stripe.connectWebhookSecret ? { connectWebhookSecret: stripe.connectWebhookSecret } : {}),
    },
    { keep: !supplied },
  );
  seedLocalSecret(secrets, 'vapid', { publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey });
  const edge = seedEdgeSecrets(secrets);
  // Only its management endpoint listens until startLocalStack attaches /ws; its handlers (the
  // socket functions) are loaded on the first connection, after the environment below is set.
  const websocket = await startLocalWebSocketApi({ originSecret: edge.originSecret }).catch(async (error: unknown) => {
    await Promise.all([dynamo.close(), s3.close(), localStripe?.close(), secrets.close()]);
    throw error;
  });
  const ses = await startLocalSes(path.join(dataDir, 'ses')).catch(async (error: unknown) => {
    await Promise.all([websocket.close(), dynamo.close(), s3.close(), localStripe?.close(), secrets.close()]);
    throw error;
  });
  // The sockets first: their $disconnect handlers still need dynalite. Then the records the stream
  // is still delivering (a few seconds at most: a consumer stuck longer is not waited for), since
  // their consumers write to the table and call the local services.
  const close = async () => {
    await websocket.close();
    await Promise.race([stream.settled(), new Promise((resolve) => setTimeout(resolve, STREAM_DRAIN_MS).unref())]);
    await Promise.all([dynamo.close(), s3.close(), localStripe?.close(), secrets.close(), ses.close()]);
  };
  const client = localDynamoClient(dynamo.endpoint);
  const s3Client = localS3Client(s3.endpoint, LOCAL_CREDENTIALS);
  try {
    await ensureTable(client, LOCAL_TABLE);
    await seedCatalog(client, LOCAL_TABLE);
    await ensureBucket(s3Client, LOCAL_UPLOADS_BUCKET);
  } catch (error) {
    await close();
    throw error;
  } finally {
    client.destroy();
    s3Client.destroy();
  }
  // Started last: it fires the schedules that fell due while stopped as soon as it is up, and the
  // handlers they load parse process.env at import. Its timers are armed only as it resolves, so the
  // environment below is in place before any of them runs.
  const scheduler = await startLocalScheduler(path.join(dataDir, 'scheduler'), fireTimer).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const secretsEnv = (): LocalSecretsEnv => ({ endpoint: secrets.endpoint, ids: secrets.secretIds() });
  if (!options.siteUrl) delete process.env.SITE_URL;
  Object.assign(
    process.env,
    localFunctionEnv(dynamo.endpoint, s3.endpoint, scheduler.endpoint, stripe, websocket.endpoint, secretsEnv(), {
      sesEndpoint: ses.endpoint,
      ...(options.siteUrl ? { siteUrl: options.siteUrl } : {}),
    }),
  );
  // The tallies the last run had not counted when it stopped (a crash, a kill) are counted now.
  const tallies = await leftoverRecords(dynamo.endpoint, LOCAL_TABLE, 'tally');
  const counter = streamConsumers.find((c) => c.name === 'follow-table-changes');
  if (tallies.length && counter) await streamConsumer(counter).deliver({ Records: tallies });
  return {
    dynamoEndpoint: dynamo.endpoint,
    s3Endpoint: s3.endpoint,
    schedulerEndpoint: scheduler.endpoint,
    stripe,
    websocket,
    secrets,
    refreshSecretIds: () => Object.assign(process.env, localSecretsEnv(secrets)),
    edge,
    ses,
    close: async () => {
      await Promise.all([close(), scheduler.close()]);
    },
  };
}

/** A stream consumer of the manifest, invoked in this process with each matching record (loaded on the first). */
function streamConsumer(consumer: (typeof streamConsumers)[number]): StreamConsumer {
  return {
    name: consumer.name,
    filters: consumer.filters,
    deliver: async (event) => {
      const handler = (await loadHandler(consumer.name)) as unknown as (e: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;
      return handler(event, lambdaContext(consumer.name));
    },
  };
}

/** The local Scheduler's target: the timer function, invoked in this process like any handler. */
async function fireTimer({ functionName, input, scheduleName }: FiredTarget): Promise<void> {
  if (!functionAreas[functionName] || !existsSync(path.join(root, functionFile(functionName)))) {
    console.error(`No timer function ${functionName} in the manifest: schedule ${scheduleName} dropped`);
    return;
  }
  // Timer functions take the schedule's input as their event, not an HTTP event.
  const handler = (await loadHandler(functionName)) as unknown as (
    event: unknown,
    context: ReturnType<typeof lambdaContext>,
  ) => Promise<unknown>;
  await handler(input, lambdaContext(functionName));
}

/**
 * A free loopback port, chosen before anything starts: the functions read the site's address (the
 * mails' links) once, when the first of them loads, and the start-up runs (the outbox sweep, the
 * tallies left uncounted) load some before the server listens.
 */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startLocalStack(requested: LocalStackOptions): Promise<LocalStack> {
  const options = requested.port ? requested : { ...requested, port: await freePort(requested.host ?? '127.0.0.1') };
  let webhookBase: string | undefined;
  const data = await prepareData(options.dataDir, {
    stripeWebhookUrl: (endpoint) => webhookBase && `${webhookBase}${endpoint === 'connect' ? '/api/stripe/connect-webhook' : '/api/stripe/webhook'}`,
    ...(options.port ? { siteUrl: `http://localhost:${options.port}` } : {}),
    ...(options.meter ? { meter: options.meter } : {}),
  });
  // The daily jobs (shared/routes.ts `recurring`), run as EventBridge Scheduler's cron schedules run them in the cloud.
  // The data folder is this stack's alone (folder-claim.ts): whatever sent mail before now is gone,
  // so the sweep at start sends what a crash left pending or half sent, without waiting out leases.
  const recurringJobs = startRecurringJobs(recurring, (name, input) => fireTimer({ functionName: name, input, scheduleName: name }), {
    atStart: { 'sweep-mail-outbox': { sendersGoneBefore: new Date().toISOString() } },
  });
  const built = typeof options.web === 'object' ? staticSite(options.web.dist) : undefined;
  const api = httpApi({ viteDev: !built, originSecret: data.edge.originSecret });
  let vite: ViteDevServer | undefined;
  const server: Server = createServer((req, res) => {
    // The local SES's inbox (every mail sent), on the site's own port: local-only, never deployed.
    if (data.ses.inbox(req, res)) return;
    void api(req, res, () => {
      if (built) built(req, res);
      else if (vite) vite.middlewares(req, res);
      else {
        res.statusCode = 404;
        res.end('Not found');
      }
    });
  });
  // Every socket the server ever accepted, upgraded ones included (Vite's HMR, /ws): closeAllConnections
  // does not reach upgraded sockets, and one left open would keep server.close() waiting for ever.
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Before Vite's HMR listener; each takes only its own upgrades.
  data.websocket.attach(server, '/ws');
  if (options.web === true || options.web === undefined) {
    const { createServer: createVite } = await import('vite');
    vite = await createVite({
      configFile: path.join(root, 'web/vite.config.ts'),
      // Where Vite keeps its pre-bundled dependencies (default node_modules/.vite): the start bench
      // gives its dev servers their own, to measure a first start without disturbing anyone else's.
      ...(process.env.VITE_CACHE_DIR ? { cacheDir: process.env.VITE_CACHE_DIR } : {}),
      server: { middlewareMode: true, hmr: { server } },
      appType: 'spa',
      logLevel: 'warn',
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const { port } = address;
  const url = `http://localhost:${port}`;
  // The local Stripe posts its events here, to the address the server actually listens on.
  const webhookHost = ['0.0.0.0', '::'].includes(address.address)
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  webhookBase = `http://${webhookHost}:${port}`;
  const stackFile = path.join(options.dataDir, 'stack.json');
  // `npm run invoke` finds the running stack here and talks to its dynalite instead of opening the
  // same LevelDB (which one process holds locked), and reads secrets from its Secrets Manager, like
  // the functions (this file holds no key). Only its owner may read it, as the key files themselves.
  writePrivateFile(
    stackFile,
    JSON.stringify({
      url,
      dynamoEndpoint: data.dynamoEndpoint,
      s3Endpoint: data.s3Endpoint,
      schedulerEndpoint: data.schedulerEndpoint,
      websocketEndpoint: data.websocket.endpoint,
      secrets: { endpoint: data.secrets.endpoint, ids: data.secrets.secretIds() } satisfies LocalSecretsEnv,
      sesEndpoint: data.ses.endpoint,
      ...(data.stripe.apiUrl ? { stripe: { apiUrl: data.stripe.apiUrl } } : {}),
      pid: process.pid,
    }),
  );

  let stopping: Promise<void> | undefined;
  let phase = 'running';
  return {
    url,
    dynamoEndpoint: data.dynamoEndpoint,
    s3Endpoint: data.s3Endpoint,
    ...(data.stripe.apiUrl ? { stripeEndpoint: data.stripe.apiUrl } : {}),
    websocketEndpoint: data.websocket.endpoint,
    secretsEndpoint: data.secrets.endpoint,
    sesEndpoint: data.ses.endpoint,
    ...((await ownerExists(data.dynamoEndpoint, LOCAL_TABLE)) ? {} : { ownerSetup: { url: `${url}/admin/setup`, code: data.edge.setupCode } }),
    stopPhase: () => phase,
    stop: () =>
      (stopping ??= (async () => {
        phase = 'closing the HTTP server';
        rmSync(stackFile, { force: true });
        server.closeAllConnections();
        // Upgraded sockets keep the server open until they end, so they are closed as it closes.
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        phase = 'saying goodbye to /ws clients';
        await data.websocket.disconnectAll();
        // /ws clients had their goodbye; whatever is still open now (an HMR socket) is ended.
        for (const socket of sockets) socket.destroy();
        await serverClosed;
        phase = 'closing Vite';
        await vite?.close();
        phase = 'closing the local services';
        recurringJobs.stop();
        await data.close();
        phase = 'stopped';
      })()),
  };
}
