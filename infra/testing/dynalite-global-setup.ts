import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import type { TestProject } from 'vitest/node';
import type { SecretName } from '../../shared/secrets';
import { ensureTable, localDynamoClient, seedCatalog, startDynalite } from '../local/dynamo';
import { ensureBucket, localS3Client, startLocalS3 } from '../local/s3';
import { startLocalScheduler } from '../local/scheduler';
import { seedLocalSecret, startLocalSecretsManager } from '../local/secrets-manager';
import { startLocalSes } from '../local/ses';
import { startLocalStripe } from '../local/stripe';
import { LOCAL_CREDENTIALS, LOCAL_TABLE, LOCAL_UPLOADS_BUCKET } from '../local/stack';
import { startLocalWebSocketApi } from '../local/websocket';
import { ensureSiteBuildQuietly } from './quiet-site-build';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    s3Endpoint: string;
    schedulerEndpoint: string;
    stripeEndpoint: string;
    websocketEndpoint: string;
    /** The local Secrets Manager the handlers read every secret from, and the ids of what it holds. */
    secretsEndpoint: string;
    secretIds: Partial<Record<SecretName, string>>;
    /** The origin secret's value: what CloudFront adds to every request (functions/testing/events.ts). */
    originSecret: string;
    /** The owner setup code (setup-admin): what the operator reads from the stack output or the npm start console. */
    setupCode: string;
    /** The local SES the mail sender sends through; tests read what it kept (functions/testing/mail.ts). */
    sesEndpoint: string;
  }
}

/**
 * One in-memory dynalite for the handler tests (a real table with real conditional writes), one
 * local S3 in a temp dir (real signatures, presigned URLs and POST policies), one local Scheduler,
 * one local Stripe, one local WebSocket API management endpoint, and one local Secrets Manager that
 * holds every secret the handlers read (no test puts a secret in the environment).
 */
export default async function setup(project: TestProject) {
  // The tests that start the stack as `npm start` does (owner setup, start) find the site's build
  // fresh instead of each making it inside its own time limit.
  await ensureSiteBuildQuietly();
  const dynamo = await startDynalite();
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, LOCAL_TABLE);
  await seedCatalog(client, LOCAL_TABLE);
  client.destroy();

  const s3Dir = mkdtempSync(path.join(tmpdir(), 'marketplace-s3-'));
  const s3 = await startLocalS3(s3Dir, LOCAL_CREDENTIALS);
  const s3Client = localS3Client(s3.endpoint, LOCAL_CREDENTIALS);
  await ensureBucket(s3Client, LOCAL_UPLOADS_BUCKET);
  s3Client.destroy();

  // Schedules are created and deleted for real, but never fire here: tests read them back
  // (GetSchedule) and call the timer functions themselves, at the moment they choose.
  const schedulerDir = mkdtempSync(path.join(tmpdir(), 'marketplace-scheduler-'));
  const scheduler = await startLocalScheduler(schedulerDir, async () => {});

  // Sessions, accounts and transfers are made for real; its hosted pages are not driven here, and the
  // webhook tests build and sign their own events with the webhook secret, so nothing is delivered.
  const stripeDir = mkdtempSync(path.join(tmpdir(), 'marketplace-stripe-'));
  const stripe = await startLocalStripe(stripeDir, { deliver: async () => {} });

  // Only the @connections endpoint: tests have no browser, so they register recording connections
  // through its /_local inspection API (functions/testing/sockets.ts) and read what was posted.
  const websocket = await startLocalWebSocketApi();

  // The secrets, as the local runtime seeds them at start: the local Stripe's keys, VAPID keys, the
  // origin secret CloudFront would send and a setup code. Tests that rotate one put it back after.
  const secretsDir = mkdtempSync(path.join(tmpdir(), 'marketplace-secrets-'));
  const secrets = await startLocalSecretsManager(secretsDir);
  seedLocalSecret(secrets, 'stripe', { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, connectWebhookSecret: stripe.connectWebhookSecret });
  const vapid = webpush.generateVAPIDKeys();
  seedLocalSecret(secrets, 'vapid', { publicKey: vapid.publicKey, privateKey: vapid.privateKey });
  const originSecret = randomBytes(32).toString('base64url');
  seedLocalSecret(secrets, 'origin', { value: originSecret });
  const setupCode = randomBytes(12).toString('base64url');
  seedLocalSecret(secrets, 'setup', { code: setupCode });

  // Mail is sent for real to a local SES; tests read the messages it kept, each test by its own addresses.
  const sesDir = mkdtempSync(path.join(tmpdir(), 'marketplace-ses-'));
  const ses = await startLocalSes(sesDir);

  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('schedulerEndpoint', scheduler.endpoint);
  project.provide('stripeEndpoint', stripe.endpoint);
  project.provide('websocketEndpoint', websocket.endpoint);
  project.provide('secretsEndpoint', secrets.endpoint);
  project.provide('secretIds', secrets.secretIds());
  project.provide('originSecret', originSecret);
  project.provide('setupCode', setupCode);
  project.provide('sesEndpoint', ses.endpoint);
  return async () => {
    await Promise.all([dynamo.close(), s3.close(), scheduler.close(), stripe.close(), websocket.close(), secrets.close(), ses.close()]);
    rmSync(sesDir, { recursive: true, force: true });
    rmSync(s3Dir, { recursive: true, force: true });
    rmSync(schedulerDir, { recursive: true, force: true });
    rmSync(stripeDir, { recursive: true, force: true });
    rmSync(secretsDir, { recursive: true, force: true });
  };
}
